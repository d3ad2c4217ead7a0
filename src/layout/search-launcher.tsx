/**
 * Search everywhere's way in, on every screen: the header's Search button and the Ctrl+K (⌘K
 * on a Mac) shortcut, which both open the command menu. The menu itself is loaded the first
 * time it opens (src/pages/search), so every screen's first load stays as it was; the button's
 * glyph is drawn in CSS, as the bell's.
 */
import { Suspense, useCallback, useEffect, useRef, useState } from "react";
import { lazyScreen } from "../components/lazy-screen";
import { focusFirst } from "../hooks/use-focus-return";
import "./search-launcher.css";

const CommandMenu = lazyScreen(() => import("../pages/search/command-menu"));

/** Whether the shortcut reads ⌘K (a Mac, an iPad) rather than Ctrl+K. */
const isApple = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.userAgent);

/** Ctrl+K, or ⌘K: with either modifier, on any keyboard layout that types a k. */
export const isSearchShortcut = (
  e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">,
) => (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k";

export function SearchLauncher({ compact = false }: { compact?: boolean }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing keeps its code and the next opening is instant.
  const [loaded, setLoaded] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const origin = useRef<Element | null>(null);

  const show = useCallback(() => {
    origin.current = document.activeElement;
    setLoaded(true);
    setOpen(true);
  }, []);

  const close = useCallback(() => {
    setOpen(false);
    // Back to where the person was (the button, a list's row), else the button.
    focusFirst(origin.current instanceof HTMLElement ? origin.current : null, button.current);
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isSearchShortcut(e)) return;
      e.preventDefault();
      if (open) close();
      else show();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, show, close]);

  const shortcut = isApple() ? "⌘K" : "Ctrl K";
  return (
    <>
      <button
        ref={button}
        type="button"
        className="atelier-search-button"
        data-testid="search-button"
        aria-label={`Search (${isApple() ? "⌘K" : "Ctrl+K"})`}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={show}
        onMouseEnter={() => void CommandMenu.preload()}
        onFocus={() => void CommandMenu.preload()}
      >
        {!compact && (
          <>
            <span className="atelier-search-label">Search…</span>
            <kbd className="atelier-kbd">{shortcut}</kbd>
          </>
        )}
      </button>
      {loaded && (
        <Suspense fallback={null}>
          <CommandMenu open={open} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
