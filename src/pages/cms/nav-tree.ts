/**
 * A navigation tree edited as a flat list (what a sortable list can drag): each row is an
 * item and its depth. Moving or indenting a row takes its subtree along; depths always form a
 * tree (a row at most one level under the row above it). Pure, so each rule is unit-tested.
 */
import type { NavItem } from "../../../schemas/cms-navigation";

export interface FlatItem {
  item: Omit<NavItem, "children">;
  /** 0: top level. */
  depth: number;
}

export function flatten(items: readonly NavItem[], depth = 0): FlatItem[] {
  return items.flatMap(({ children, ...item }) => [{ item, depth }, ...flatten(children ?? [], depth + 1)]);
}

export function buildTree(flat: readonly FlatItem[]): NavItem[] {
  const root: NavItem[] = [];
  const stack: NavItem[][] = [root];
  for (const { item, depth } of flat) {
    const node: NavItem = { ...item, children: [] };
    const level = Math.min(depth, stack.length - 1);
    stack[level].push(node);
    stack.length = level + 1;
    stack.push(node.children);
  }
  return root;
}

/** The index after the last row of the subtree that starts at `index`. */
export function subtreeEnd(flat: readonly FlatItem[], index: number): number {
  let end = index + 1;
  while (end < flat.length && flat[end].depth > flat[index].depth) end++;
  return end;
}

/** Keeps every row at most one level under the row above it (the first at the top). */
function normalise(flat: FlatItem[]): FlatItem[] {
  let previous = -1;
  return flat.map((row) => {
    const depth = Math.max(0, Math.min(row.depth, previous + 1));
    previous = depth;
    return depth === row.depth ? row : { ...row, depth };
  });
}

/**
 * Moves the row at `from` (with its subtree) to where the row at `to` is, as a sortable list
 * drops it: moving up, it lands before that row; moving down, after that row's subtree. It
 * takes that row's depth (a sibling of it).
 */
export function moveRow(flat: readonly FlatItem[], from: number, to: number): FlatItem[] {
  const end = subtreeEnd(flat, from);
  if (to >= from && to < end) return [...flat];
  const block = flat.slice(from, end);
  const rest = [...flat.slice(0, from), ...flat.slice(end)];
  const target = to < from ? to : to - block.length;
  const at = to < from ? target : subtreeEnd(rest, target);
  const by = rest[target].depth - block[0].depth;
  const moved = block.map((r) => ({ ...r, depth: r.depth + by }));
  return normalise([...rest.slice(0, at), ...moved, ...rest.slice(at)]);
}

/** Indents (+1) or outdents (-1) the row at `index` and its subtree, within the tree's rules. */
export function shiftDepth(
  flat: readonly FlatItem[],
  index: number,
  by: 1 | -1,
  maxDepth: number,
): FlatItem[] {
  const row = flat[index];
  const end = subtreeEnd(flat, index);
  const above = index > 0 ? flat[index - 1].depth : -1;
  const next = row.depth + by;
  if (next < 0 || next > above + 1) return [...flat];
  const deepest = Math.max(...flat.slice(index, end).map((r) => r.depth)) + by;
  if (deepest > maxDepth - 1) return [...flat];
  return normalise(flat.map((r, i) => (i >= index && i < end ? { ...r, depth: r.depth + by } : r)));
}

/** Removes the row at `index` and its subtree. */
export function removeRow(flat: readonly FlatItem[], index: number): FlatItem[] {
  return normalise([...flat.slice(0, index), ...flat.slice(subtreeEnd(flat, index))]);
}

/**
 * Where a drag drops the row at `from`: moved to where the row at `to` is (moveRow), then
 * nested `depthChange` levels deeper (or shallower), as far as the tree's rules allow. The
 * keyboard's Arrow Right and Left and a sideways mouse drag give the depth change.
 */
export function dropRow(
  flat: readonly FlatItem[],
  from: number,
  to: number,
  depthChange: number,
  maxDepth: number,
): FlatItem[] {
  const id = flat[from].item.id;
  let rows = from === to ? [...flat] : moveRow(flat, from, to);
  const at = rows.findIndex((r) => r.item.id === id);
  for (let i = 0; i < Math.abs(depthChange); i++)
    rows = shiftDepth(rows, at, depthChange > 0 ? 1 : -1, maxDepth);
  return rows;
}

/** A row's place in words, for the screen reader: "position 2 of 3, under Shop". */
export function placeOf(flat: readonly FlatItem[], id: string): string {
  const index = flat.findIndex((r) => r.item.id === id);
  if (index < 0) return "";
  const { depth } = flat[index];
  let parent = index - 1;
  while (parent >= 0 && flat[parent].depth >= depth) parent--;
  const where = depth === 0 ? "at the top level" : `under ${flat[parent]?.item.label ?? "the item above"}`;
  return `position ${index + 1} of ${flat.length}, ${where}`;
}
