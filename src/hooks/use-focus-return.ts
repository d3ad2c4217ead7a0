/**
 * Focus put back after a popup closes (a Popconfirm, a menu, a confirm dialog) or after the
 * focused control went away (a deleted row): to where the person was when the popup opened
 * while that control is still on the page and usable, else to the nearest sensible control
 * the screen names. Without it focus falls to the page body, and Escape or Tab start over
 * from the top (issue 27).
 */
import { useCallback, useRef } from "react";

type Target = HTMLElement | null | undefined;

const usable = (el: Target): el is HTMLElement =>
  Boolean(
    el?.isConnected && !el.closest("[aria-hidden='true'], [inert]") && !(el as HTMLButtonElement).disabled,
  );

/** Focuses the first usable of `targets`, once the closing popup has left the page. */
export function focusFirst(...targets: Array<Target | (() => Target)>): void {
  requestAnimationFrame(() => {
    for (const target of targets) {
      const el = typeof target === "function" ? target() : target;
      if (usable(el)) {
        el.focus({ preventScroll: false });
        return;
      }
    }
  });
}

export function useFocusReturn() {
  const origin = useRef<HTMLElement | null>(null);
  /** Call when the popup opens: the focused control (its trigger) is where focus comes back to. */
  const remember = useCallback(() => {
    origin.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, []);
  /** Call when it closed: back to the trigger, or to the first usable fallback. */
  const restore = useCallback((...fallbacks: Array<Target | (() => Target)>) => {
    focusFirst(origin.current, ...fallbacks);
  }, []);
  return { remember, restore };
}

/**
 * Props for a Popconfirm or Dropdown (`onOpenChange`): remembers the trigger as it opens and
 * returns focus to it (or a fallback) as it closes, confirmed, cancelled or escaped.
 */
export function useReturnFocusOnClose(...fallbacks: Array<Target | (() => Target)>) {
  const { remember, restore } = useFocusReturn();
  return {
    onOpenChange: (open: boolean) => (open ? remember() : restore(...fallbacks)),
  };
}
