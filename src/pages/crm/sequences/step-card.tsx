/**
 * One step in the builder's list: its drag handle (mouse, touch, or keyboard: Space to lift,
 * arrows to move, Space to drop), its number, type and what it does, a problem badge, and a
 * delete button. Clicking it (or Enter on it) opens it in the step editor.
 */
import {
  CheckSquareOutlined,
  ClockCircleOutlined,
  DeleteOutlined,
  MailOutlined,
  MessageOutlined,
} from "@ant-design/icons";
import { Button, Typography } from "antd";
import type { ReactNode } from "react";
import {
  type SequenceStep,
  type SequenceStepType,
  STEP_TYPE_LABELS,
} from "../../../../schemas/crm-sequence-steps";
import { ProblemsBadge, SortableCard } from "../../../components/sortable-card";
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
  const title = stepTitle(step);
  return (
    <SortableCard
      id={step.key}
      block="seq-step"
      selected={selected}
      problems={problems}
      modifiers={[step.type === "wait" && "wait"]}
      moveLabel={`Move step ${index + 1}, ${title} (position ${index + 1} of ${count})`}
      editLabel={`Edit step ${index + 1}: ${title}`}
      onSelect={onSelect}
      data={{ "data-testid": "sequence-step", "data-step-type": step.type }}
      actions={
        <>
          <ProblemsBadge problems={problems} className="seq-step-badge" />
          <Button
            type="text"
            size="small"
            danger
            className="seq-step-delete"
            icon={<DeleteOutlined aria-hidden />}
            aria-label={`Delete step ${index + 1}: ${title}`}
            onClick={onDelete}
          />
        </>
      }
    >
      <span className="seq-step-number" aria-hidden>
        {index + 1}
      </span>
      <span className="seq-step-icon">{STEP_ICONS[step.type]}</span>
      <span className="seq-step-text">
        {/* Cut by CSS, whole on hover: antd's measured ellipsis can re-measure past React's
            update limit while the list reflows (error #185 when steps were added). */}
        <Typography.Text strong className="seq-step-title" title={stepSummary(step)}>
          {stepSummary(step)}
        </Typography.Text>
        <Typography.Text type="secondary" className="seq-step-type">
          {STEP_TYPE_LABELS[step.type]}
        </Typography.Text>
      </span>
    </SortableCard>
  );
}
