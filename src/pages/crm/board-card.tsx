/**
 * One opportunity on the board: its title (a link to its page), client, value, expected close
 * and owner. The whole card drags with the mouse or a finger; the grip is the keyboard's way
 * (Space to lift, arrows to move, Space to drop). Plain elements and CSS, no antd components:
 * a column redraws its cards as it scrolls.
 */
import { HolderOutlined } from "@ant-design/icons";
import { useDraggable } from "@dnd-kit/core";
import { type CSSProperties, type KeyboardEventHandler, memo, type PointerEventHandler } from "react";
import { Link } from "react-router";
import type { BoardCard } from "../../../schemas/crm-board";
import { formatMoney } from "../../../schemas/money";
import { formatIsoDay } from "../../lib/dates";

/** A card's height and the gap below it: the columns' rows are this tall, so they need no measuring. */
export const CARD_HEIGHT = 96;
export const CARD_GAP = 8;
export const ROW_HEIGHT = CARD_HEIGHT + CARD_GAP;

/** Up to two initials of a name, for the owner's badge. */
export function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (
    parts.length > 1 ? parts[0][0] + (parts.at(-1) as string)[0] : (parts[0] ?? "").slice(0, 2)
  ).toUpperCase();
}

interface CardBodyProps {
  card: BoardCard;
  owner: string | undefined;
  /** The record's page. */
  href: string;
  /** Today as `YYYY-MM-DD`: an earlier expected close is overdue. */
  today: string;
}

/** What a card shows; also the picture under the pointer while it is dragged. */
export function CardBody({ card, owner, href, today }: CardBodyProps) {
  const overdue = card.expected_close !== null && card.expected_close < today;
  return (
    <>
      <Link to={href} className="pb-card-title" draggable={false} title={card.title}>
        {card.title}
      </Link>
      <div className="pb-card-client" title={card.client_company ?? undefined}>
        {card.client_name}
        {card.client_company && <span className="pb-card-company"> · {card.client_company}</span>}
      </div>
      <div className="pb-card-foot">
        <span className="pb-card-value">{formatMoney(card.value, card.currency, { style: "short" })}</span>
        {card.expected_close && (
          <span
            className={overdue ? "pb-card-date pb-card-date--overdue" : "pb-card-date"}
            title={overdue ? "Expected close has passed" : "Expected close"}
          >
            {formatIsoDay(card.expected_close)}
          </span>
        )}
        {owner && (
          <span className="pb-card-owner" title={`Owner: ${owner}`} role="img" aria-label={`Owner: ${owner}`}>
            {initialsOf(owner)}
          </span>
        )}
      </div>
    </>
  );
}

interface BoardCardViewProps extends CardBodyProps {
  /** Its index in its column. */
  index: number;
  count: number;
  stageLabel: string;
  style: CSSProperties;
}

export const BoardCardView = memo(function BoardCardView(props: BoardCardViewProps) {
  const { card, index, count, stageLabel, style } = props;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: card.id,
    data: { stage: card.stage },
  });
  return (
    <div
      ref={setNodeRef}
      className={isDragging ? "pb-card pb-card--lifted" : "pb-card"}
      style={style}
      data-card-id={card.id}
      data-card-index={index}
      // The pointer lifts the card anywhere on it; the keyboard only on its grip.
      onPointerDown={listeners?.onPointerDown as PointerEventHandler | undefined}
    >
      <button
        ref={setActivatorNodeRef}
        type="button"
        className="pb-card-grip"
        {...attributes}
        onKeyDown={listeners?.onKeyDown as KeyboardEventHandler | undefined}
        aria-label={`Move ${card.title} (${stageLabel}, ${index + 1} of ${count})`}
      >
        <HolderOutlined aria-hidden />
      </button>
      <CardBody {...props} />
    </div>
  );
});
