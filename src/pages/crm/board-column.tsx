/**
 * One stage of the board: its name, chance of winning, count and totals (per currency, and
 * weighted by the chance), an Add button, and its cards in a virtualised list (only the cards in
 * view are in the page, so a column of thousands scrolls as lightly as one of ten). While a
 * card is dragged over it, a line shows where it would land.
 */
import { PlusOutlined } from "@ant-design/icons";
import { useDroppable } from "@dnd-kit/core";
import { useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useRef } from "react";
import type { BoardCard, BoardColumn as Column } from "../../../schemas/crm-board";
import { formatMoney, formatPercent } from "../../../schemas/money";
import { plural } from "../../lib/text";
import { BoardCardView, CARD_GAP, CARD_HEIGHT, ROW_HEIGHT } from "./board-card";

/** The totals of a column or a board, one currency after another ("₹12L + $4K"). */
export function totalsText(totals: Column["totals"], which: "value" | "weighted", compact = true): string {
  return totals
    .map((t) => formatMoney(t[which], t.currency, { style: compact ? "compact" : "short" }))
    .join(" + ");
}

export interface BoardColumnProps {
  column: Column;
  cards: readonly BoardCard[];
  /** The dragged card, when it is in this column. */
  draggedIndex: number | null;
  /** Where the dragged card would land in this column (an index among the other cards), if here. */
  dropIndex: number | null;
  owners: ReadonlyMap<string, string>;
  hrefOf: (id: string) => string;
  today: string;
  onAdd: (stage: string) => void;
  /** Hands over the column's list, so the keyboard can bring a place into view. */
  register: (
    stage: string,
    entry: { virtualizer: Virtualizer<HTMLDivElement, Element>; element: HTMLElement } | null,
  ) => void;
}

export const BoardColumn = memo(function BoardColumn(props: BoardColumnProps) {
  const { column, cards, draggedIndex, dropIndex, owners, hrefOf, today, onAdd, register } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const section = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: cards.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => cards[index]?.id ?? index,
    overscan: 6,
  });
  // The droppable is the list inside the scrolling area: dnd-kit scrolls the area when the
  // pointer nears its edge while over it.
  const { setNodeRef } = useDroppable({ id: `column:${column.stage}`, disabled: column.retired });

  useEffect(() => {
    if (section.current) register(column.stage, { virtualizer, element: section.current });
    return () => register(column.stage, null);
  }, [register, column.stage, virtualizer]);

  const total = cards.length;
  // Where the line goes: above the card that will follow the dropped one, or below the last.
  let lineTop: number | null = null;
  if (dropIndex !== null) {
    const full = draggedIndex !== null && dropIndex >= draggedIndex ? dropIndex + 1 : dropIndex;
    const samePlace = draggedIndex !== null && dropIndex === draggedIndex;
    if (!samePlace) lineTop = Math.max(0, Math.min(full, total) * ROW_HEIGHT - CARD_GAP / 2 - 1);
  }
  const heading = `${column.label}${column.retired ? " (archived)" : ""}`;
  const weighted = column.probability !== null && column.totals.length > 0;

  return (
    <section
      ref={section}
      className={dropIndex !== null ? "pb-column pb-column--target" : "pb-column"}
      aria-label={`${heading}: ${plural(column.count, "opportunity", "opportunities")}`}
      data-stage={column.stage}
    >
      <header className="pb-column-head" style={column.color ? { borderTopColor: column.color } : undefined}>
        <div className="pb-column-title">
          <h3 title={heading}>{heading}</h3>
          <span className="pb-count" title={plural(column.count, "open opportunity", "open opportunities")}>
            {column.count.toLocaleString()}
          </span>
          {column.probability !== null && (
            <span className="pb-probability" title="Chance of winning at this stage">
              {formatPercent(column.probability)}
            </span>
          )}
          {!column.retired && (
            <button
              type="button"
              className="pb-add"
              onClick={() => onAdd(column.stage)}
              aria-label={`Add opportunity to ${column.label}`}
              title={`Add opportunity to ${column.label}`}
            >
              <PlusOutlined aria-hidden />
            </button>
          )}
        </div>
        <div className="pb-column-figures">
          <span className="pb-total" title={totalsText(column.totals, "value", false) || undefined}>
            {totalsText(column.totals, "value") || formatMoney(0, null, { style: "compact" })}
          </span>
          {weighted && (
            <span
              className="pb-weighted"
              title={`Weighted by ${formatPercent(column.probability ?? 0)}: ${totalsText(column.totals, "weighted", false)}`}
            >
              weighted {totalsText(column.totals, "weighted")}
            </span>
          )}
        </div>
      </header>
      <div ref={scroller} className="pb-column-body" data-column-scroll={column.stage}>
        <div
          ref={setNodeRef}
          className="pb-column-list"
          style={{ height: Math.max(virtualizer.getTotalSize(), 1) }}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const card = cards[item.index];
            return (
              <BoardCardView
                key={card.id}
                card={card}
                index={item.index}
                count={total}
                stageLabel={column.label}
                owner={card.owner_id ? owners.get(card.owner_id) : undefined}
                href={hrefOf(card.id)}
                today={today}
                style={{ transform: `translateY(${item.start}px)`, height: CARD_HEIGHT }}
              />
            );
          })}
          {lineTop !== null && total > 0 && (
            <div className="pb-drop-line" style={{ top: lineTop }} aria-hidden />
          )}
        </div>
        {total === 0 && (
          <div className={dropIndex !== null ? "pb-empty pb-empty--target" : "pb-empty"}>
            {column.count > 0 ? "Not loaded: narrow the filters" : "No opportunities"}
          </div>
        )}
      </div>
    </section>
  );
});
