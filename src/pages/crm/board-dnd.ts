/**
 * Where a dragged card would land on the pipeline board. The columns are virtualised (only the
 * cards in view exist in the page), so a drop place is worked out from the board's data and the
 * cards in view, not from dnd-kit's droppables: with the pointer, from the column under it and
 * the card whose middle is below it; with the keyboard, by stepping through the board's places
 * (up and down a column, left and right between columns, and past the last column to Won, then
 * Lost). Places are indexes among the column's *other* cards.
 */
import type { DropTarget } from "./board-state";

/** A column a card can be dropped in: its stage, label, and how many other cards it holds. */
export interface DropColumn {
  stage: string;
  label: string;
  size: number;
}

/** A card in view: its index in its column (the dragged card counted), and its top and bottom. */
export interface CardInView {
  index: number;
  top: number;
  bottom: number;
}

/**
 * The index among the column's other cards that a pointer at `y` points to: before the first
 * card in view whose middle is below it, else after the last one in view.
 *
 * @example
 * // Cards 0..2 in view, 100px apart; the pointer between card 1's middle and card 2's:
 * indexAtPointer(190, [{ index: 0, top: 0, bottom: 90 }, { index: 1, top: 100, bottom: 190 }, { index: 2, top: 200, bottom: 290 }], null); // 2
 */
export function indexAtPointer(
  y: number,
  inView: readonly CardInView[],
  draggedIndex: number | null,
): number {
  const others = inView.filter((c) => c.index !== draggedIndex).sort((a, b) => a.index - b.index);
  const own = (index: number) => (draggedIndex !== null && index > draggedIndex ? index - 1 : index);
  const below = others.find((c) => (c.top + c.bottom) / 2 > y);
  if (below) return own(below.index);
  const last = others.at(-1);
  return last ? own(last.index) + 1 : 0;
}

export type Step = "up" | "down" | "left" | "right";

const STEPS: Readonly<Record<string, Step>> = {
  ArrowUp: "up",
  ArrowDown: "down",
  ArrowLeft: "left",
  ArrowRight: "right",
};

/** The step an arrow key makes, or undefined for any other key. */
export const stepOfKey = (code: string): Step | undefined => STEPS[code];

/**
 * The place one arrow key away: up and down within a column (stopping at its ends), left and
 * right to the same index of the next column (or its end), and right of the last column to Won,
 * then Lost.
 *
 * @example
 * const columns = [{ stage: "new", label: "New", size: 3 }, { stage: "won-soon", label: "Proposal", size: 1 }];
 * stepTarget({ kind: "column", stage: "new", index: 2 }, "right", columns); // { kind: "column", stage: "won-soon", index: 1 }
 * stepTarget({ kind: "column", stage: "won-soon", index: 0 }, "right", columns); // { kind: "won" }
 */
export function stepTarget(current: DropTarget, step: Step, columns: readonly DropColumn[]): DropTarget {
  // Places from left to right: each column, then Won, then Lost.
  const slots = [...columns.map((c) => c.stage), "won", "lost"];
  const at = current.kind === "column" ? columns.findIndex((c) => c.stage === current.stage) : -1;
  const slot = current.kind === "column" ? at : slots.indexOf(current.kind);
  const index = current.kind === "column" ? current.index : 0;
  if (step === "up" || step === "down") {
    if (current.kind !== "column" || at < 0) return current;
    const size = columns[at].size;
    return { ...current, index: Math.max(0, Math.min(size, index + (step === "down" ? 1 : -1))) };
  }
  const next = Math.max(0, Math.min(slots.length - 1, slot + (step === "right" ? 1 : -1)));
  if (next === slot) return current;
  if (next >= columns.length) return { kind: next === columns.length ? "won" : "lost" };
  // From Won back to the last column: its end.
  const keep = current.kind === "column" ? index : columns[next].size;
  return { kind: "column", stage: columns[next].stage, index: Math.min(keep, columns[next].size) };
}

/** The drop place in words, for the screen reader's announcements. */
export function describeTarget(target: DropTarget | null, columns: readonly DropColumn[]): string {
  if (!target) return "no place: letting go leaves it where it was";
  if (target.kind === "won") return "Won: letting go marks it as won";
  if (target.kind === "lost") return "Lost: letting go asks why it was lost";
  const column = columns.find((c) => c.stage === target.stage);
  if (!column) return "no place";
  return `${column.label}, position ${target.index + 1} of ${column.size + 1}`;
}

/** Whether two drop places are the same (nothing to redraw). */
export function sameTarget(a: DropTarget | null, b: DropTarget | null): boolean {
  if (!a || !b) return a === b;
  if (a.kind !== b.kind) return false;
  return a.kind !== "column" || (b.kind === "column" && a.stage === b.stage && a.index === b.index);
}
