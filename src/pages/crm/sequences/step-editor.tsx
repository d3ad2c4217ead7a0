/**
 * The selected step's fields, changed in place (the builder saves them all at once): for an
 * email, its template, subject and message; for an SMS, its template and text with its length;
 * for a wait, how long; for a task, its title, notes, due day and who it is for. Texts take merge
 * fields ("Insert field" puts one at the cursor).
 */
import { useSelect } from "@refinedev/antd";
import { type BaseRecord, useList } from "@refinedev/core";
import { Form, InputNumber, Radio, Select, Typography } from "antd";
import {
  type EmailStep,
  MAX_TASK_DUE_DAYS,
  type SequenceStep,
  type SmsStep,
  STEP_TYPE_LABELS,
  type TaskStep,
  type WaitStep,
} from "../../../../schemas/crm-sequence-steps";
import { DELAY_UNITS } from "../../../lib/delays";
import { PanelItem } from "../../forms/panel-item";
import { MergeLine, MergeText } from "../email/merge-inputs";
import { STEP_ICONS } from "./step-card";

interface StepEditorProps {
  step: SequenceStep;
  index: number;
  /** Messages by field of this step. */
  problems: ReadonlyMap<string, string[]>;
  onChange: (step: SequenceStep) => void;
}

const UNIT_LABELS = { minutes: "Minutes", hours: "Hours", days: "Days", weeks: "Weeks" } as const;

/** HTML of a rich-text template as the plain text a step sends. */
function plainText(body: string): string {
  if (!/<[a-z][\s\S]*>/i.test(body)) return body;
  const doc = new DOMParser().parseFromString(
    body.replace(/<\/(p|div|li|h\d)>|<br\s*\/?>/gi, "$&\n"),
    "text/html",
  );
  return (doc.body.textContent ?? "").replace(/\n{3,}/g, "\n\n").trim();
}

function TemplatePick({
  id,
  channel,
  value,
  onPick,
}: {
  id: string;
  channel: "email" | "sms";
  value: string | null | undefined;
  onPick: (template: BaseRecord | null) => void;
}) {
  const { result, query } = useList({
    resource: "templates",
    filters: [{ field: "channel", operator: "eq", value: channel }],
    sorters: [{ field: "name", order: "asc" }],
    pagination: { pageSize: 200 },
  });
  const templates = result?.data ?? [];
  return (
    <Select
      id={id}
      allowClear
      loading={query.isPending}
      placeholder={`Start from ${channel === "email" ? "an email" : "an SMS"} template (optional)`}
      value={value ?? undefined}
      options={templates.map((t) => ({ value: String(t.id), label: String(t.name) }))}
      notFoundContent={`No ${channel === "email" ? "email" : "SMS"} template yet`}
      onChange={(picked?: string) => onPick(templates.find((t) => String(t.id) === picked) ?? null)}
    />
  );
}

function UserPick({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string | null | undefined;
  onChange: (v: string | null) => void;
}) {
  const { selectProps } = useSelect<BaseRecord>({
    resource: "users",
    optionLabel: (item) => String(item.name ?? item.email ?? item.id),
    optionValue: (item) => String(item.id),
    defaultValue: value ?? undefined,
    pagination: { pageSize: 20 },
    onSearch: (q) => [{ field: "q", operator: "contains", value: q.trim() || undefined }],
  });
  return (
    <Select
      showSearch
      filterOption={false}
      options={selectProps.options}
      onSearch={selectProps.onSearch}
      loading={selectProps.loading}
      id={id}
      value={value ?? undefined}
      placeholder="Choose a user"
      onChange={(next?: string) => onChange(next ?? null)}
      style={{ width: "100%" }}
    />
  );
}

export function StepEditor({ step, index, problems, onChange }: StepEditorProps) {
  const at = (field: string) => problems.get(field);
  const id = (field: string) => `seq-step-${field}`;
  const set = <S extends SequenceStep>(patch: Partial<S>) => onChange({ ...step, ...patch } as SequenceStep);
  return (
    <section className="seq-editor" aria-label={`Step ${index + 1}`}>
      <Typography.Title level={5} className="seq-editor-title">
        {STEP_ICONS[step.type]} Step {index + 1}: {STEP_TYPE_LABELS[step.type]}
      </Typography.Title>
      {at("type") && <Typography.Paragraph type="danger">{at("type")?.join(" ")}</Typography.Paragraph>}
      <Form layout="vertical" component="div">
        {step.type === "email" && <EmailFields step={step} id={id} at={at} set={set} />}
        {step.type === "sms" && <SmsFields step={step} id={id} at={at} set={set} />}
        {step.type === "wait" && <WaitFields step={step} id={id} at={at} set={set} />}
        {step.type === "task" && <TaskFields step={step} id={id} at={at} set={set} />}
      </Form>
      {step.type !== "wait" && (
        <Typography.Paragraph type="secondary" className="seq-editor-note">
          Merge fields are filled for each client when the step runs. “You” fields are the client’s owner, or
          whoever enrolled them.
        </Typography.Paragraph>
      )}
    </section>
  );
}

interface FieldsProps<S extends SequenceStep> {
  step: S;
  id: (field: string) => string;
  at: (field: string) => string[] | undefined;
  set: (patch: Partial<S>) => void;
}

function EmailFields({ step, id, at, set }: FieldsProps<EmailStep>) {
  return (
    <>
      <PanelItem id={id("template")} label="Template" message={at("templateId")}>
        <TemplatePick
          id={id("template")}
          channel="email"
          value={step.templateId}
          onPick={(t) =>
            set(
              t
                ? {
                    templateId: String(t.id),
                    subject: String(t.subject ?? step.subject),
                    body: plainText(String(t.body)),
                  }
                : { templateId: null },
            )
          }
        />
      </PanelItem>
      <PanelItem id={id("subject")} label="Subject" required message={at("subject")}>
        <MergeLine id={id("subject")} value={step.subject} onChange={(subject) => set({ subject })} />
      </PanelItem>
      <PanelItem id={id("body")} label="Message" required message={at("body")}>
        <MergeText id={id("body")} value={step.body} rows={8} onChange={(body) => set({ body })} />
      </PanelItem>
    </>
  );
}

function SmsFields({ step, id, at, set }: FieldsProps<SmsStep>) {
  const length = Array.from(step.body).length;
  return (
    <>
      <PanelItem id={id("template")} label="Template" message={at("templateId")}>
        <TemplatePick
          id={id("template")}
          channel="sms"
          value={step.templateId}
          onPick={(t) => set(t ? { templateId: String(t.id), body: String(t.body) } : { templateId: null })}
        />
      </PanelItem>
      <PanelItem id={id("body")} label="Message" required message={at("body")}>
        <MergeText
          id={id("body")}
          value={step.body}
          rows={4}
          onChange={(body) => set({ body })}
          footer={
            <Typography.Text type="secondary" className="seq-count">
              {length} characters before merge fields
            </Typography.Text>
          }
        />
      </PanelItem>
    </>
  );
}

function WaitFields({ step, id, at, set }: FieldsProps<WaitStep>) {
  return (
    <PanelItem
      id={id("amount")}
      label="Wait for"
      required
      message={[...(at("amount") ?? []), ...(at("unit") ?? [])]}
    >
      <div className="seq-wait">
        <InputNumber
          id={id("amount")}
          min={1}
          max={100_000}
          precision={0}
          value={step.amount}
          onChange={(amount) => set({ amount: typeof amount === "number" ? amount : 0 })}
          aria-label="Amount"
        />
        <Select
          value={step.unit}
          onChange={(unit) => set({ unit })}
          options={DELAY_UNITS.map((u) => ({ value: u, label: UNIT_LABELS[u] }))}
          aria-label="Unit"
          style={{ width: 140 }}
        />
      </div>
    </PanelItem>
  );
}

function TaskFields({ step, id, at, set }: FieldsProps<TaskStep>) {
  return (
    <>
      <PanelItem id={id("title")} label="Task title" required message={at("title")}>
        <MergeLine id={id("title")} value={step.title} onChange={(title) => set({ title })} />
      </PanelItem>
      <PanelItem id={id("notes")} label="Notes" message={at("notes")}>
        <MergeText
          id={id("notes")}
          value={step.notes ?? ""}
          rows={3}
          maxLength={4000}
          onChange={(notes) => set({ notes: notes || null })}
        />
      </PanelItem>
      <PanelItem id={id("due")} label="Due" message={at("dueInDays")}>
        <InputNumber
          id={id("due")}
          min={0}
          max={MAX_TASK_DUE_DAYS}
          precision={0}
          value={step.dueInDays}
          onChange={(d) => set({ dueInDays: typeof d === "number" ? d : 0 })}
          addonAfter="days after the step runs"
        />
      </PanelItem>
      <PanelItem
        id={id("assignee")}
        label="Assigned to"
        message={[...(at("assignee") ?? []), ...(at("assigneeId") ?? [])]}
      >
        <Radio.Group
          id={id("assignee")}
          value={step.assignee}
          onChange={(e) =>
            set({ assignee: e.target.value, assigneeId: e.target.value === "user" ? step.assigneeId : null })
          }
          options={[
            { value: "owner", label: "The client's owner" },
            { value: "user", label: "A user" },
          ]}
        />
        {step.assignee === "user" && (
          <div className="seq-user-pick">
            <UserPick
              id={id("assigneeId")}
              value={step.assigneeId}
              onChange={(assigneeId) => set({ assigneeId })}
            />
          </div>
        )}
      </PanelItem>
    </>
  );
}
