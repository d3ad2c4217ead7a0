/**
 * Dragging cards on the board with dnd-kit: the mouse (or a finger) anywhere on a card, the
 * keyboard on its grip. The drop place is the board's own (board-dnd.ts): with the pointer, the
 * column and card under it, kept current while a column scrolls by itself near its edge; with
 * the keyboard, each arrow steps to the next place, brings it into view and says where it is.
 */
import {
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import type { Virtualizer } from "@tanstack/react-virtual";
import { type CSSProperties, type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { BoardCard } from "../../../schemas/crm-board";
import {
  type CardInView,
  type DropColumn,
  describeTarget,
  indexAtPointer,
  sameTarget,
  stepOfKey,
  stepTarget,
} from "./board-dnd";
import { type BoardState, type DropTarget, findCard } from "./board-state";

export interface ColumnEntry {
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  element: HTMLElement;
}

interface DragOptions {
  board: BoardState | undefined;
  root: RefObject<HTMLElement | null>;
  onDrop: (card: BoardCard, target: DropTarget) => void;
  onDragging: (dragging: boolean) => void;
}

const inside = (r: DOMRect, x: number, y: number) =>
  x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;

export const DRAG_INSTRUCTIONS =
  "Press Space or Enter to pick up the opportunity. Up and down arrows move it within its column, left and right arrows to another column; right of the last column are Won, then Lost. Press Space or Enter again to drop it, Escape to cancel.";

export function useBoardDrag({ board, root, onDrop, onDragging }: DragOptions) {
  const [active, setActive] = useState<{ card: BoardCard; keyboard: boolean } | null>(null);
  const [target, setTargetState] = useState<DropTarget | null>(null);
  const [spoken, setSpoken] = useState("");
  const targetRef = useRef<DropTarget | null>(null);
  const activeRef = useRef<BoardCard | null>(null);
  const boardRef = useRef(board);
  boardRef.current = board;
  const pointer = useRef<{ x: number; y: number } | null>(null);
  /** Where the card was taken, from its top left, and its width: the picture under the pointer keeps both. */
  const grab = useRef<{ dx: number; dy: number; width: number } | null>(null);
  const ghost = useRef<HTMLDivElement>(null);
  const lists = useRef(new Map<string, ColumnEntry>());
  // What the last drag was, for the announcement dnd-kit makes after the drop or cancel.
  const ended = useRef<{ card: BoardCard | null; place: string }>({ card: null, place: "" });

  const register = useCallback((stage: string, entry: ColumnEntry | null) => {
    if (entry) lists.current.set(stage, entry);
    else lists.current.delete(stage);
  }, []);

  const setTarget = useCallback((next: DropTarget | null) => {
    if (sameTarget(next, targetRef.current)) return;
    targetRef.current = next;
    setTargetState(next);
  }, []);

  /** The columns a card can go to, each with how many other cards it holds. */
  const dropColumns = useCallback((): DropColumn[] => {
    const state = boardRef.current;
    const moving = activeRef.current;
    if (!state) return [];
    return state.columns
      .filter((c) => !c.retired)
      .map((c) => {
        const size = state.cards[c.stage]?.length ?? 0;
        return { stage: c.stage, label: c.label, size: moving?.stage === c.stage ? size - 1 : size };
      });
  }, []);

  /** The index of the dragged card in its column, or null when it is in another one. */
  const draggedIndexIn = useCallback((stage: string): number | null => {
    const moving = activeRef.current;
    if (!moving || moving.stage !== stage) return null;
    const index = boardRef.current?.cards[stage]?.findIndex((c) => c.id === moving.id) ?? -1;
    return index < 0 ? null : index;
  }, []);

  /** The drop place under a point of the window. */
  const targetAt = useCallback(
    (x: number, y: number): DropTarget | null => {
      const el = root.current;
      if (!el) return null;
      for (const zone of el.querySelectorAll<HTMLElement>("[data-zone]"))
        if (inside(zone.getBoundingClientRect(), x, y)) return { kind: zone.dataset.zone as "won" | "lost" };
      for (const section of el.querySelectorAll<HTMLElement>("section[data-stage]")) {
        if (!inside(section.getBoundingClientRect(), x, y)) continue;
        const stage = section.dataset.stage as string;
        if (!dropColumns().some((c) => c.stage === stage)) return null;
        const inView: CardInView[] = [...section.querySelectorAll<HTMLElement>("[data-card-index]")].map(
          (card) => {
            const r = card.getBoundingClientRect();
            return { index: Number(card.dataset.cardIndex), top: r.top, bottom: r.bottom };
          },
        );
        return { kind: "column", stage, index: indexAtPointer(y, inView, draggedIndexIn(stage)) };
      }
      return null;
    },
    [root, dropColumns, draggedIndexIn],
  );

  /** Brings a keyboard place into view: the column's row, or the Won/Lost place. */
  const reveal = useCallback(
    (next: DropTarget) => {
      if (next.kind !== "column") {
        root.current
          ?.querySelector(`[data-zone="${next.kind}"]`)
          ?.scrollIntoView({ block: "nearest", inline: "nearest" });
        return;
      }
      const entry = lists.current.get(next.stage);
      if (!entry) return;
      entry.element.scrollIntoView({ block: "nearest", inline: "nearest" });
      const dragged = draggedIndexIn(next.stage);
      const full = dragged !== null && next.index >= dragged ? next.index + 1 : next.index;
      const count = boardRef.current?.cards[next.stage]?.length ?? 0;
      if (count > 0) entry.virtualizer.scrollToIndex(Math.min(full, count - 1), { align: "auto" });
    },
    [root, draggedIndexIn],
  );

  // The keyboard's arrows step between the board's places; dnd-kit's own coordinates stay put.
  const keyboardCoordinates = useCallback<KeyboardCoordinateGetter>(
    (event) => {
      const step = stepOfKey(event.code);
      const current = targetRef.current;
      if (!step || !current) return undefined;
      event.preventDefault();
      const columns = dropColumns();
      const next = stepTarget(current, step, columns);
      setTarget(next);
      reveal(next);
      setSpoken(`${activeRef.current?.title ?? "The opportunity"} is over ${describeTarget(next, columns)}.`);
      return undefined;
    },
    [dropColumns, setTarget, reveal],
  );

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates }),
  );

  // dnd-kit's `over` is only used to scroll the column under the pointer near its edges.
  const collisionDetection = useCallback<CollisionDetection>(
    ({ pointerCoordinates, droppableContainers }) => {
      if (!pointerCoordinates) return [];
      const at = targetAt(pointerCoordinates.x, pointerCoordinates.y);
      const id = at ? (at.kind === "column" ? `column:${at.stage}` : `zone:${at.kind}`) : null;
      return id && droppableContainers.some((c) => c.id === id) ? [{ id }] : [];
    },
    [targetAt],
  );

  const finish = useCallback(() => {
    ended.current = { card: activeRef.current, place: describeTarget(targetRef.current, dropColumns()) };
    activeRef.current = null;
    targetRef.current = null;
    pointer.current = null;
    grab.current = null;
    setActive(null);
    setTargetState(null);
    onDragging(false);
  }, [onDragging, dropColumns]);

  const onDragStart = useCallback(
    ({ active: dragged, activatorEvent }: DragStartEvent) => {
      const state = boardRef.current;
      const card = state && findCard(state, String(dragged.id));
      if (!card) return;
      const keyboard = activatorEvent instanceof KeyboardEvent;
      if (!keyboard && "clientX" in activatorEvent) {
        const { clientX: x, clientY: y } = activatorEvent as PointerEvent;
        const board = root.current;
        const rect = board?.querySelector(`[data-card-id="${CSS.escape(card.id)}"]`)?.getBoundingClientRect();
        pointer.current = { x, y };
        grab.current = rect
          ? { dx: x - rect.left, dy: y - rect.top, width: rect.width }
          : { dx: 16, dy: 16, width: 240 };
      }
      activeRef.current = card;
      setActive({ card, keyboard });
      onDragging(true);
      const index = state.cards[card.stage].findIndex((c) => c.id === card.id);
      const start: DropTarget = { kind: "column", stage: card.stage, index };
      targetRef.current = start;
      setTargetState(keyboard ? start : null);
      if (keyboard) setSpoken("");
    },
    [onDragging, root],
  );

  // The pointer as the window sees it. dnd-kit's drag delta counts the scrolling of the card's
  // column too (a column scrolls by itself near its edge), so the pointer is followed here, and
  // the picture under it is moved by hand, without a render per move.
  useEffect(() => {
    const el = root.current;
    if (!active || active.keyboard || !el) return;
    const follow = () => {
      const at = pointer.current;
      if (!at) return;
      setTarget(targetAt(at.x, at.y));
      const g = grab.current;
      if (ghost.current && g) ghost.current.style.transform = `translate(${at.x - g.dx}px, ${at.y - g.dy}px)`;
    };
    const onMove = (event: PointerEvent) => {
      pointer.current = { x: event.clientX, y: event.clientY };
      follow();
    };
    // A column scrolling by itself under a still pointer brings other cards under it.
    window.addEventListener("pointermove", onMove, { passive: true });
    el.addEventListener("scroll", follow, true);
    follow();
    return () => {
      window.removeEventListener("pointermove", onMove);
      el.removeEventListener("scroll", follow, true);
    };
  }, [active, root, setTarget, targetAt]);

  const onDragEnd = useCallback(
    (_event: DragEndEvent) => {
      const card = activeRef.current;
      const place = targetRef.current;
      finish();
      if (card && place) onDrop(card, place);
    },
    [finish, onDrop],
  );

  const announcements = useMemo<Announcements>(
    () => ({
      onDragStart: () => {
        const card = activeRef.current;
        return card ? `Picked up ${card.title}, in ${describeTarget(targetRef.current, dropColumns())}.` : "";
      },
      onDragOver: () => "",
      onDragMove: () => "",
      onDragEnd: () => {
        const { card, place } = ended.current;
        return card ? `${card.title} dropped on ${place}.` : "";
      },
      onDragCancel: () => `Moving ${ended.current.card?.title ?? "the opportunity"} was cancelled.`,
    }),
    [dropColumns],
  );

  /** The picture under the pointer: where it starts, and how wide; moved by the hook after. */
  const ghostStyle = (): CSSProperties | undefined => {
    const g = grab.current;
    const at = pointer.current;
    if (!g || !at) return undefined;
    return { width: g.width, transform: `translate(${at.x - g.dx}px, ${at.y - g.dy}px)` };
  };

  return {
    active,
    target,
    ghost,
    ghostStyle,
    spoken,
    register,
    dndProps: {
      sensors,
      collisionDetection,
      onDragStart,
      onDragEnd,
      onDragCancel: finish,
      accessibility: { announcements, screenReaderInstructions: { draggable: DRAG_INSTRUCTIONS } },
      // Near the edges only: on the way down to Won and Lost the columns passed over stay put.
      autoScroll: { threshold: { x: 0.1, y: 0.08 }, acceleration: 12 },
    },
  };
}
