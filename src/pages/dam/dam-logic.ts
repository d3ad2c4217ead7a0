/**
 * The asset manager's screen logic, free of React: selection (click, ctrl/cmd toggle,
 * shift range, select all), the upload queue's progress (`uploadProgress`), sizes and
 * sort options. The page holds these values in state and calls these functions.
 */

/** A folder or an asset as the content area shows it, keyed `folder:<id>` / `asset:<id>`. */
export type ItemKind = "folder" | "asset";
export type ItemKey = `${ItemKind}:${string}`;

export const itemKey = (kind: ItemKind, id: string): ItemKey => `${kind}:${id}`;

export function parseItemKey(key: ItemKey): { kind: ItemKind; id: string } {
  const at = key.indexOf(":");
  return { kind: key.slice(0, at) as ItemKind, id: key.slice(at + 1) };
}

export interface SelectionState {
  selected: ReadonlySet<ItemKey>;
  /** Where a shift-click range starts: the last item clicked without shift. */
  anchor: ItemKey | null;
}

export const EMPTY_SELECTION: SelectionState = { selected: new Set(), anchor: null };

export interface ClickModifiers {
  /** Ctrl on Windows/Linux, Cmd on macOS: toggle one item. */
  toggle?: boolean;
  /** Shift: the range from the anchor. */
  range?: boolean;
}

/**
 * The selection after clicking `key` among `order` (the items in display order).
 *
 * @example
 * let s = select(EMPTY_SELECTION, order, "asset:a");            // {a}
 * s = select(s, order, "asset:c", { range: true });              // {a, b, c}
 * s = select(s, order, "asset:b", { toggle: true });             // {a, c}
 */
export function select(
  state: SelectionState,
  order: readonly ItemKey[],
  key: ItemKey,
  modifiers: ClickModifiers = {},
): SelectionState {
  if (modifiers.range && state.anchor && order.includes(state.anchor)) {
    const from = order.indexOf(state.anchor);
    const to = order.indexOf(key);
    if (to < 0) return state;
    const range = order.slice(Math.min(from, to), Math.max(from, to) + 1);
    const selected = new Set<ItemKey>(modifiers.toggle ? state.selected : []);
    for (const k of range) selected.add(k);
    return { selected, anchor: state.anchor };
  }
  if (modifiers.toggle) {
    const selected = new Set(state.selected);
    if (selected.has(key)) selected.delete(key);
    else selected.add(key);
    return { selected, anchor: key };
  }
  return { selected: new Set([key]), anchor: key };
}

/** Every item selected, or none when every item already is (the select-all checkbox). */
export function toggleAll(state: SelectionState, order: readonly ItemKey[]): SelectionState {
  const all = order.length > 0 && order.every((k) => state.selected.has(k));
  return all ? EMPTY_SELECTION : { selected: new Set(order), anchor: order[0] ?? null };
}

/** Drops keys no longer shown (after a refresh, a move or a delete). */
export function keepVisible(state: SelectionState, order: readonly ItemKey[]): SelectionState {
  const visible = new Set(order);
  if ([...state.selected].every((k) => visible.has(k))) return state;
  const selected = new Set([...state.selected].filter((k) => visible.has(k)));
  return { selected, anchor: state.anchor && visible.has(state.anchor) ? state.anchor : null };
}

/** The spec's `selectedFolders` / `selectedAssets`: ids by kind, in selection order. */
export function splitSelection(selected: Iterable<ItemKey>): {
  selectedFolders: string[];
  selectedAssets: string[];
} {
  const selectedFolders: string[] = [];
  const selectedAssets: string[] = [];
  for (const key of selected) {
    const { kind, id } = parseItemKey(key);
    (kind === "folder" ? selectedFolders : selectedAssets).push(id);
  }
  return { selectedFolders, selectedAssets };
}

/** "2 folders and 3 assets", "1 asset". */
export function describeSelection(folders: number, assets: number): string {
  const part = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  const parts = [folders ? part(folders, "folder") : "", assets ? part(assets, "asset") : ""].filter(Boolean);
  return parts.length ? parts.join(" and ") : "nothing";
}

// ------------------------------------------------------------------ display

export const SORT_OPTIONS = [
  { value: "name", label: "Name (A–Z)" },
  { value: "-name", label: "Name (Z–A)" },
  { value: "-createdAt", label: "Newest first" },
  { value: "createdAt", label: "Oldest first" },
  { value: "-size", label: "Largest first" },
  { value: "size", label: "Smallest first" },
] as const;

export type AssetSort = (typeof SORT_OPTIONS)[number]["value"];

/** The folder sort that matches an asset sort (folders have no size: by name then). */
export function folderSortOf(sort: AssetSort): string {
  if (sort.endsWith("createdAt")) return sort;
  return sort === "-name" ? "-name" : "name";
}

/** Whether a mime type is an image the browser can show as a thumbnail. */
export const isImage = (mime: string) => mime.startsWith("image/");

/** An asset URL as an absolute one (product images must be absolute URIs). */
export const absoluteUrl = (url: string, origin: string) => new URL(url, origin).href;
