import { type RefObject, useEffect, useRef } from "react";

/** What the editor's keys do; each is called only when the key is not typed into a field. */
export interface EditorKeyActions {
  undo: () => void;
  save: () => void;
  /** Delete or Backspace; answers false when nothing is selected (the key goes on). */
  removeSelected: () => boolean;
  deselect: () => void;
  /** Arrow keys turn pages only when no hotspot is selected. */
  hasSelection: () => boolean;
  nextPage: () => void;
  previousPage: () => void;
  zoomIn: () => void;
  zoomOut: () => void;
  fitWidth: () => void;
}

/** Where a key is text or a control's own (a field, a select, a dialog), not a shortcut. */
const TYPING =
  "input, textarea, select, [contenteditable=''], [contenteditable=true], [role=combobox], .ant-select, .ant-modal";

/**
 * The hotspot editor's keyboard shortcuts: Ctrl/⌘+Z undo, Ctrl/⌘+S save, Delete remove,
 * Escape deselect, PageUp/PageDown (and ←/→ with nothing selected) turn pages, + and - zoom,
 * 0 fits the width. They work with the focus in the editor or nowhere in particular (after
 * a click on the page), never while typing in a field or a dialog.
 */
export function useEditorKeys(root: RefObject<HTMLElement | null>, actions: EditorKeyActions) {
  // The latest actions, so the listener is added once.
  const latest = useRef(actions);
  latest.current = actions;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return;
      const target = event.target as HTMLElement | null;
      const inEditor = !target || target === document.body || Boolean(root.current?.contains(target));
      if (!inEditor || target?.closest(TYPING)) return;
      const a = latest.current;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      const handled = (run: () => void) => {
        event.preventDefault();
        run();
      };
      if (mod) {
        if (key === "z") handled(a.undo);
        else if (key === "s") handled(a.save);
        // Ctrl/⌘ with + - 0 stays the browser's own zoom.
        return;
      }
      if (key === "delete" || key === "backspace") {
        if (a.removeSelected()) event.preventDefault();
      } else if (key === "escape") a.deselect();
      else if (key === "pagedown" || (key === "arrowright" && !a.hasSelection())) handled(a.nextPage);
      else if (key === "pageup" || (key === "arrowleft" && !a.hasSelection())) handled(a.previousPage);
      else if (key === "+" || key === "=") handled(a.zoomIn);
      else if (key === "-" || key === "_") handled(a.zoomOut);
      else if (key === "0") handled(a.fitWidth);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [root]);
}
