/**
 * Where a card sits in its column on the pipeline board: a float `position`, lowest first, ties
 * broken by id. A card put between two others takes the midpoint of theirs, so a move writes one
 * row; when two neighbours are too close for a midpoint the column is renumbered first
 * (board.service.ts `renumberColumn`), which keeps the order and opens even gaps again.
 */

/** The gap between neighbours after a renumbering, and a card's step past the end of its column. */
export const POSITION_GAP = 1024;

/**
 * Neighbours closer than this are renumbered before a card goes between them: about 30
 * halvings of a fresh gap, long before doubles run out of digits between two values.
 */
export const MIN_POSITION_GAP = 1e-6;

/** A card's place in its column: its position, then its id for cards with equal positions. */
export interface Place {
  id: string;
  position: number;
}

/** Whether `a` comes before `b` in a column. */
export const comesBefore = (a: Place, b: Place): boolean =>
  a.position < b.position || (a.position === b.position && a.id < b.id);

/**
 * The position of a card put between `lower` and `upper` (either may be missing: the top or the
 * end of the column, or an empty column), or null when the two are too close and the column must
 * be renumbered first.
 *
 * @example
 * positionBetween({ id: "a", position: 1024 }, { id: "b", position: 2048 }); // 1536
 * positionBetween({ id: "a", position: 1024 }, undefined); // 2048
 * positionBetween({ id: "a", position: 1 }, { id: "b", position: 1 }); // null
 */
export function positionBetween(lower: Place | undefined, upper: Place | undefined): number | null {
  if (!lower && !upper) return 0;
  if (!upper) return (lower as Place).position + POSITION_GAP;
  if (!lower) return upper.position - POSITION_GAP;
  if (upper.position - lower.position < MIN_POSITION_GAP) return null;
  const middle = lower.position + (upper.position - lower.position) / 2;
  // Far from zero, a double may have no value strictly between two close ones.
  return middle > lower.position && middle < upper.position ? middle : null;
}

let lastArrival = 0;

/**
 * The position of a card that arrives in a column by any other way than a drop on the board (a
 * new opportunity, one whose stage was changed in its form, one reopened): above every card
 * placed by a drop, the newest on top, so it is in view where the user looks first. Minus the
 * time in milliseconds does it without reading the column; within one millisecond each next
 * card goes a thousandth higher.
 */
export function arrivalPosition(now = Date.now()): number {
  const position = -now;
  lastArrival = position < lastArrival ? position : lastArrival - 0.001;
  return lastArrival;
}

/**
 * The opportunity rules' part in the board: a card that arrives in a column (created, its stage
 * changed, reopened) is put on top of it. The board's own move sets its position after this.
 */
export function placeOnArrival(
  existing: Readonly<Record<string, unknown>> | null,
  values: Readonly<Record<string, unknown>>,
  set: Record<string, unknown>,
): void {
  const arrives =
    !existing ||
    ("stage" in values && values.stage !== existing.stage) ||
    (values.status === "open" && existing.status !== "open");
  if (arrives) set.position = arrivalPosition();
}
