/**
 * One field on the canvas: its drag handle (mouse, touch, or keyboard: Space to lift, arrows to
 * move, Space to drop), label, kind, id, required mark, logic and problem badges, and a delete
 * button that asks first. Clicking it (or Enter on its name) opens it in the property panel.
 */
import { BranchesOutlined, DeleteOutlined } from "@ant-design/icons";
import { Button, Popconfirm, Tag, Tooltip, Typography } from "antd";
import type { FormFieldDef } from "../../../schemas/form-definition";
import { FORM_FIELD_LABELS } from "../../../schemas/forms";
import { ProblemsBadge, SortableCard } from "../../components/sortable-card";
import { plural } from "../../lib/text";
import { FieldKindIcon } from "./field-kind-icons";

export type DropHint = "before" | "after" | null;

interface FieldCardProps {
  field: FormFieldDef;
  index: number;
  count: number;
  selected: boolean;
  /** Messages about this field (the checks, or a refused save). */
  problems: readonly string[];
  /** Labels of the fields whose logic reads this one's answer. */
  dependents: readonly string[];
  /** Where a field dragged from the palette would land, next to this one. */
  dropHint: DropHint;
  onSelect: () => void;
  onDelete: () => void;
  /** A page break's page number (the page it starts). */
  pageNumber?: number;
}

const ACTION_WORDS = { show: "Shown", hide: "Hidden", require: "Required" } as const;
const PAGE_ACTION_WORDS = { show: "Shown", hide: "Skipped", require: "Required" } as const;

/** The logic of a field in a sentence, for the badge's tooltip. */
function logicSummary(field: FormFieldDef): string {
  return (field.logic ?? [])
    .map((rule) => {
      const fields = [...new Set(rule.conditions.map((c) => c.field))].join(", ");
      const words = field.kind === "page" ? PAGE_ACTION_WORDS : ACTION_WORDS;
      return `${words[rule.action]} when ${rule.match === "all" ? "all" : "any"} of ${plural(rule.conditions.length, "condition")} on ${fields || "—"} hold`;
    })
    .join("; ");
}

export function FieldCard(props: FieldCardProps) {
  const { field, index, count, selected, problems, dependents, dropHint, onSelect, onDelete, pageNumber } =
    props;
  const label = field.label || "(no label)";
  return (
    <SortableCard
      id={field.id}
      block="fb-card"
      selected={selected}
      problems={problems}
      modifiers={[dropHint && `drop-${dropHint}`, field.kind === "page" && "page"]}
      moveLabel={`Move ${label} (position ${index + 1} of ${count})`}
      editLabel={`Edit ${label}`}
      onSelect={onSelect}
      data={{ "data-testid": "field-card", "data-field-id": field.id }}
      actions={
        <>
          <span className="fb-card-badges">
            <ProblemsBadge problems={problems} className="fb-badge" />
            {Boolean(field.logic?.length) && (
              <Tooltip title={logicSummary(field)}>
                <Tag color="purple" icon={<BranchesOutlined aria-hidden />} className="fb-badge">
                  {field.kind === "page" ? "Skip rule" : "Logic"}
                </Tag>
              </Tooltip>
            )}
          </span>
          <Popconfirm
            title={`Delete “${label}”?`}
            description={
              dependents.length
                ? `The logic of ${dependents.join(", ")} reads its answer and will need another field.`
                : "Answers already sent keep it; the form stops asking for it."
            }
            okText="Delete"
            okButtonProps={{ danger: true }}
            cancelText="Keep"
            onConfirm={onDelete}
          >
            <Button
              type="text"
              size="small"
              danger
              className="fb-card-delete"
              icon={<DeleteOutlined aria-hidden />}
              aria-label={`Delete ${label}`}
            />
          </Popconfirm>
        </>
      }
    >
      <span className="fb-card-title">
        <span className="fb-card-icon">
          <FieldKindIcon kind={field.kind} />
        </span>
        <Typography.Text strong ellipsis className="fb-card-label">
          {label}
        </Typography.Text>
        {field.required && (
          <span className="fb-required" title="Required">
            *
          </span>
        )}
      </span>
      <span className="fb-card-meta">
        <span>
          {pageNumber ? `Page break · page ${pageNumber} starts here` : FORM_FIELD_LABELS[field.kind]}
        </span>
        {field.kind !== "heading" && field.kind !== "page" && (
          <Typography.Text type="secondary" code className="fb-card-id">
            {field.id}
          </Typography.Text>
        )}
      </span>
    </SortableCard>
  );
}
