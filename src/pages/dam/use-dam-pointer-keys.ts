/**
 * How the items answer the mouse and the keyboard: click (Ctrl/⌘ toggles, Shift extends),
 * drag (the selection moves with the item), and keys on the focused contents — arrows walk,
 * Shift extends, Ctrl+A selects all, Enter opens, Delete asks to delete, Escape clears.
 */
import type { DragEvent, KeyboardEvent, MouseEvent } from "react";
import type { Selection } from "./dam-api";
import type { DamItem } from "./dam-items";
import { EMPTY_SELECTION, type SelectionState, select, splitSelection } from "./dam-logic";
import { DAM_DRAG_TYPE } from "./folder-tree";

/** Arrow keys as steps through the items (the grid reads left to right, row by row). */
const ARROW_STEPS: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** The selection a drag carries: the dragged item with the rest of the selection if it is part of it. */
export function draggedSelection(item: DamItem, selected: ReadonlySet<string>): Selection {
  const keys = selected.has(item.key) ? [...selected] : [item.key];
  const { selectedFolders, selectedAssets } = splitSelection(keys as DamItem["key"][]);
  return { folderIds: selectedFolders, assetIds: selectedAssets };
}

interface PointerKeysOptions {
  items: readonly DamItem[];
  order: readonly DamItem["key"][];
  selection: SelectionState;
  setSelection: (next: SelectionState | ((s: SelectionState) => SelectionState)) => void;
  open: (item: DamItem) => void;
  /** Delete (after asking) what is selected. */
  remove: () => void;
}

export function useDamPointerKeys({
  items,
  order,
  selection,
  setSelection,
  open,
  remove,
}: PointerKeysOptions) {
  const count = selection.selected.size;

  const onItemClick = (item: DamItem, event: MouseEvent) =>
    setSelection((s) =>
      select(s, order, item.key, { toggle: event.ctrlKey || event.metaKey, range: event.shiftKey }),
    );

  const onDragStart = (item: DamItem, event: DragEvent) => {
    if (!selection.selected.has(item.key)) setSelection(select(EMPTY_SELECTION, order, item.key));
    const what = draggedSelection(item, selection.selected);
    event.dataTransfer.setData(DAM_DRAG_TYPE, JSON.stringify(what));
    event.dataTransfer.effectAllowed = "move";
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.target as HTMLElement).closest("input, textarea, button, [role=menu]")) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "a") {
      event.preventDefault();
      setSelection({ selected: new Set(order), anchor: order[0] ?? null });
    } else if (event.key === "Escape") {
      setSelection(EMPTY_SELECTION);
    } else if (ARROW_STEPS[event.key] && order.length) {
      // Arrows walk the items from the last one clicked; Shift extends the range.
      event.preventDefault();
      const from = selection.anchor ? order.indexOf(selection.anchor) : -1;
      const at = Math.min(order.length - 1, Math.max(0, from + ARROW_STEPS[event.key]));
      const key = order[at];
      setSelection((s) => {
        const next = select(s, order, key, { range: event.shiftKey });
        return event.shiftKey ? next : { ...next, anchor: key };
      });
      document.querySelector(`[data-item="${CSS.escape(key)}"]`)?.scrollIntoView({ block: "nearest" });
    } else if ((event.key === "Delete" || event.key === "Backspace") && count) {
      event.preventDefault();
      remove();
    } else if (event.key === "Enter" && count === 1) {
      const item = items.find((i) => selection.selected.has(i.key));
      if (item) open(item);
    }
  };

  return { onItemClick, onDragStart, onKeyDown };
}
