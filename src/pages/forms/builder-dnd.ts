/**
 * How the builder's drag and drop decides where things go. Cards reorder as any sortable list;
 * a kind dragged from the palette lands before the card it is over (after it, when it is over
 * the card's lower half) or at the end. With the keyboard, the arrows step a lifted palette
 * item from one place to the next (dnd-kit's sortable stepping only knows sortable items).
 */
import {
  type ClientRect,
  type CollisionDetection,
  closestCenter,
  type KeyboardCoordinateGetter,
  pointerWithin,
  rectIntersection,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import type { FormFieldKind } from "../../../schemas/forms";

/** The droppable id of the end of the canvas's list. */
export const CANVAS_END = "canvas:end";

/** The draggable id of a palette item (field ids never hold a colon). */
export const paletteId = (kind: FormFieldKind) => `palette:${kind}`;

/** The kind a palette item's id stands for, or null for a field card's id. */
export function paletteKind(id: string | number): FormFieldKind | null {
  const text = String(id);
  return text.startsWith("palette:") ? (text.slice("palette:".length) as FormFieldKind) : null;
}

/**
 * Where a kind dropped over `overId` goes: the index it is inserted at, or null when it is
 * over nothing of the canvas.
 *
 * @example
 * dropIndex("email", ["name", "email"], false); // 1 (before Email)
 * dropIndex("canvas:end", ["name", "email"], false); // 2
 */
export function dropIndex(
  overId: string | number | null | undefined,
  ids: readonly string[],
  lowerHalf: boolean,
) {
  if (overId === null || overId === undefined) return null;
  if (overId === CANVAS_END) return ids.length;
  const at = ids.indexOf(String(overId));
  if (at < 0) return null;
  return lowerHalf ? at + 1 : at;
}

/** Whether the dragged rectangle's middle is below the middle of the one it is over. */
export const inLowerHalf = (dragged: ClientRect | null | undefined, over: ClientRect | null | undefined) =>
  Boolean(dragged && over && dragged.top + dragged.height / 2 > over.top + over.height / 2);

/**
 * A palette item is over what the pointer is over (or, between cards, what it overlaps), so
 * letting go over the palette adds nothing; with the keyboard, over the place it stepped to. A card
 * is over the nearest card, as in any sortable list.
 */
export const builderCollisions: CollisionDetection = (args) => {
  if (paletteKind(args.active.id)) {
    // With the keyboard: what the stepped rectangle lies on (nothing before the first step).
    if (!args.pointerCoordinates) return rectIntersection(args);
    const within = pointerWithin(args);
    return within.length ? within : rectIntersection(args);
  }
  return closestCenter({
    ...args,
    droppableContainers: args.droppableContainers.filter((c) => c.id !== CANVAS_END),
  });
};

const FORWARD = new Set(["ArrowDown", "ArrowRight"]);
const BACKWARD = new Set(["ArrowUp", "ArrowLeft"]);

/**
 * The arrows with a palette item lifted: the next or previous place on the canvas, top to
 * bottom (each card, then the end). Cards themselves step as sortable items.
 */
export const builderKeyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  const { active, droppableRects, droppableContainers, over } = args.context;
  if (!active || !paletteKind(active.id)) return sortableKeyboardCoordinates(event, args);
  const forward = FORWARD.has(event.code);
  if (!forward && !BACKWARD.has(event.code)) return undefined;
  event.preventDefault();
  const places = droppableContainers
    .getEnabled()
    .map((c) => ({ id: c.id, rect: droppableRects.get(c.id) }))
    .filter((p): p is { id: string | number; rect: ClientRect } => Boolean(p.rect))
    .sort((a, b) => a.rect.top - b.rect.top);
  if (!places.length) return undefined;
  const current = over ? places.findIndex((p) => p.id === over.id) : -1;
  const next =
    current < 0
      ? forward
        ? 0
        : places.length - 1
      : Math.max(0, Math.min(places.length - 1, current + (forward ? 1 : -1)));
  const { rect } = places[next];
  // The top-left of the place, a little inside: over it, and in its upper half (before it).
  return { x: rect.left + 8, y: rect.top + 2 };
};
