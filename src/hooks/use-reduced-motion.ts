/**
 * Whether the person asked their system for less motion (`prefers-reduced-motion: reduce`),
 * kept current if they change it while the app is open. The root ConfigProvider then turns
 * antd's motion off (drawers, dialogs, menus and tabs appear at once; no click wave), as
 * WCAG 2.3.3 asks of animation that is not essential.
 */
import { useSyncExternalStore } from "react";

const QUERY = "(prefers-reduced-motion: reduce)";

const media = () => (typeof window !== "undefined" && window.matchMedia ? window.matchMedia(QUERY) : null);

function subscribe(onChange: () => void): () => void {
  const list = media();
  list?.addEventListener("change", onChange);
  return () => list?.removeEventListener("change", onChange);
}

export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => media()?.matches ?? false,
    () => false,
  );
}
