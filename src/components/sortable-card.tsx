/**
 * A card of a builder's sortable list (dnd-kit): a drag handle (mouse, touch, or keyboard:
 * Space to lift, arrows to move, Space to drop), a button that opens the card in the builder's
 * editor, and the card's own actions after it. The form builder's fields and the sequence
 * builder's steps are these; each names its parts with its own class block (`fb-card`,
 * `seq-step`: `…-handle`, `…-main`, `…--selected`, `…--problem`, `…--dragging`).
 *
 * @example
 * <SortableCard id={step.key} block="seq-step" selected={selected} problems={problems}
 *   moveLabel="Move step 2, Wait 2 days (position 2 of 3)" editLabel="Edit step 2: Wait 2 days"
 *   onSelect={select} actions={<DeleteButton />}>
 *   <span className="seq-step-text">…</span>
 * </SortableCard>
 */
import { ExclamationCircleFilled, HolderOutlined } from "@ant-design/icons";
import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Button, Tag, Tooltip } from "antd";
import type { ReactNode } from "react";
import { plural } from "../lib/text";

interface SortableCardProps {
  id: string;
  /** The class block of the card's parts. */
  block: string;
  selected: boolean;
  /** Messages about the card: any marks it `…--problem`. */
  problems: readonly string[];
  /** More `…--<modifier>` classes (a drop hint, a kind). */
  modifiers?: ReadonlyArray<string | false | null | undefined>;
  /** The handle's name: what it moves and where it is. */
  moveLabel: string;
  /** The main button's name. */
  editLabel: string;
  onSelect: () => void;
  /** The card's face, inside the button that selects it. */
  children: ReactNode;
  /** After the face: badges, delete. */
  actions: ReactNode;
  /** `data-*` attributes of the card (tests and styles find it by them). */
  data?: Readonly<Record<`data-${string}`, string>>;
}

export function SortableCard(props: SortableCardProps) {
  const { id, block, selected, problems, modifiers = [], moveLabel, editLabel, onSelect, data } = props;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id });
  const states = [selected && "selected", problems.length > 0 && "problem", isDragging && "dragging"];
  const classes = [block, ...[...states, ...modifiers].filter(Boolean).map((m) => `${block}--${m}`)];
  return (
    <li
      ref={setNodeRef}
      className={classes.join(" ")}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      {...data}
    >
      <Button
        ref={setActivatorNodeRef}
        type="text"
        size="small"
        className={`${block}-handle`}
        icon={<HolderOutlined aria-hidden />}
        aria-label={moveLabel}
        {...attributes}
        {...listeners}
      />
      <button
        type="button"
        className={`${block}-main`}
        onClick={onSelect}
        aria-pressed={selected}
        aria-label={editLabel}
      >
        {props.children}
      </button>
      {props.actions}
    </li>
  );
}

/** "2 problems", with the messages in its tooltip; nothing when there are none. */
export function ProblemsBadge({ problems, className }: { problems: readonly string[]; className: string }) {
  if (!problems.length) return null;
  return (
    <Tooltip title={problems.join(" · ")}>
      <Tag color="error" icon={<ExclamationCircleFilled aria-hidden />} className={className}>
        {plural(problems.length, "problem")}
      </Tag>
    </Tooltip>
  );
}
