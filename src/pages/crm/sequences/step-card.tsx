/**
 * One step in the builder's list: its drag handle (mouse, touch, or keyboard: Space to lift,
 * arrows to move, Space to drop), its number, type and what it does, a problem badge, and a
 * delete button. Clicking it (or Enter on it) opens it in the step editor.
 */
import {
  CheckSquareOutlined,
  ClockCircleOutlined,
  DeleteOutlined,
  ExclamationCircleFilled,
  HolderOutlined,
  MailOutlined,
  MessageOutlined,
} from "@ant-design/icons";
import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Button, Tag, Tooltip, Typography } from "antd";
import type { ReactNode } from "react";
import {
  type SequenceStep,
  type SequenceStepType,
  STEP_TYPE_LABELS,
} from "../../../../schemas/crm-sequence-steps";
import { plural } from "../../../lib/text";
import { stepSummary, stepTitle } from "./sequence-steps";

export const STEP_ICONS: Readonly<Record<SequenceStepType, ReactNode>> = {
  email: <MailOutlined aria-hidden />,
  sms: <MessageOutlined aria-hidden />,
  wait: <ClockCircleOutlined aria-hidden />,
  task: <CheckSquareOutlined aria-hidden />,
};

interface StepCardProps {
  step: SequenceStep;
  index: number;
  count: number;
  selected: boolean;
  problems: readonly string[];
  onSelect: () => void;
  onDelete: () => void;
}

export function StepCard({ step, index, count, selected, problems, onSelect, onDelete }: StepCardProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: step.key });
  const title = stepTitle(step);
  const classes = ["seq-step"];
  if (selected) classes.push("seq-step--selected");
  if (problems.length) classes.push("seq-step--problem");
  if (isDragging) classes.push("seq-step--dragging");
  if (step.type === "wait") classes.push("seq-step--wait");
  return (
    <li
      ref={setNodeRef}
      className={classes.join(" ")}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid="sequence-step"
      data-step-type={step.type}
    >
      <Button
        ref={setActivatorNodeRef}
        type="text"
        size="small"
        className="seq-step-handle"
        icon={<HolderOutlined aria-hidden />}
        aria-label={`Move step ${index + 1}, ${title} (position ${index + 1} of ${count})`}
        {...attributes}
        {...listeners}
      />
      <button
        type="button"
        className="seq-step-main"
        onClick={onSelect}
        aria-pressed={selected}
        aria-label={`Edit step ${index + 1}: ${title}`}
      >
        <span className="seq-step-number" aria-hidden>
          {index + 1}
        </span>
        <span className="seq-step-icon">{STEP_ICONS[step.type]}</span>
        <span className="seq-step-text">
          <Typography.Text strong ellipsis className="seq-step-title">
            {stepSummary(step)}
          </Typography.Text>
          <Typography.Text type="secondary" className="seq-step-type">
            {STEP_TYPE_LABELS[step.type]}
          </Typography.Text>
        </span>
      </button>
      {problems.length > 0 && (
        <Tooltip title={problems.join(" · ")}>
          <Tag color="error" icon={<ExclamationCircleFilled aria-hidden />} className="seq-step-badge">
            {plural(problems.length, "problem")}
          </Tag>
        </Tooltip>
      )}
      <Button
        type="text"
        size="small"
        danger
        className="seq-step-delete"
        icon={<DeleteOutlined aria-hidden />}
        aria-label={`Delete step ${index + 1}: ${title}`}
        onClick={onDelete}
      />
    </li>
  );
}
