/**
 * The sidebar's forms for the trigger and the condition, delay and wait steps; each changes
 * the model in place (the page saves the draft). Action steps: action-form.tsx.
 */
import { CopyOutlined } from "@ant-design/icons";
import { useSelect } from "@refinedev/antd";
import type { BaseRecord } from "@refinedev/core";
import { App, Button, Input, InputNumber, Radio, Select, Space, Typography } from "antd";
import { useEffect } from "react";
import {
  type ConditionStep,
  type DelayStep,
  isRecordTrigger,
  type RecordTriggerKind,
  TRIGGER_KINDS,
  TRIGGER_LABELS,
  type Trigger,
  type TriggerKind,
  WAIT_EVENT_LABELS,
  WAIT_EVENTS,
  type WaitForEventStep,
} from "../../../schemas/automation";
import type { ConditionalFilter } from "../../../schemas/conditions";
import type { MergeField } from "../../../schemas/merge-fields";
import { DELAY_UNITS, type DelayUnit } from "../../lib/delays";
import { PanelItem } from "../forms/panel-item";
import { ConditionEditor } from "./condition-editor";
import { recordTriggerOptions, recordTriggerValue, useEntities } from "./entities";

const UNIT_OPTIONS = DELAY_UNITS.map((u) => ({ value: u, label: u }));
const TIME_ZONES =
  typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];
const ZONE_OPTIONS = TIME_ZONES.map((z) => ({ value: z, label: z }));
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A time zone, the browser's until another is chosen (and stored as soon as it shows). */
function ZoneItem({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string | undefined;
  onChange: (zone: string) => void;
}) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when there is none yet.
  useEffect(() => {
    if (!value) onChange(browserZone);
  }, [value]);
  return (
    <PanelItem id={id} label="Time zone">
      <Select id={id} showSearch value={value ?? browserZone} options={ZONE_OPTIONS} onChange={onChange} />
    </PanelItem>
  );
}

/** An amount and a unit side by side ("2 days"). */
function Duration({
  id,
  amount,
  unit,
  onChange,
}: {
  id: string;
  amount: number | undefined;
  unit: DelayUnit | undefined;
  onChange: (amount: number | undefined, unit: DelayUnit) => void;
}) {
  return (
    <Space.Compact block>
      <InputNumber
        id={id}
        min={1}
        precision={0}
        value={amount}
        onChange={(v) => onChange(v ?? undefined, unit ?? "days")}
        style={{ width: "50%" }}
      />
      <Select
        aria-label="Unit"
        value={unit ?? "days"}
        options={UNIT_OPTIONS}
        onChange={(u: DelayUnit) => onChange(amount, u)}
        style={{ width: "50%" }}
      />
    </Space.Compact>
  );
}

export function TriggerForm({
  trigger,
  fields,
  webhookPath,
  onChange,
}: {
  trigger: Trigger;
  fields: readonly MergeField[];
  webhookPath: string | undefined;
  onChange: (changes: Partial<Trigger>) => void;
}) {
  const { message } = App.useApp();
  const forms = useSelect<BaseRecord>({
    resource: "forms",
    optionLabel: (f) => String(f.name ?? f.title ?? f.id),
    optionValue: (f) => String(f.id),
    pagination: { pageSize: 50 },
    queryOptions: { enabled: trigger.kind === "form-submitted" },
  });
  const filter: ConditionalFilter = { operator: "and", value: trigger.filter ?? [] };
  const webhookUrl = webhookPath ? `${window.location.origin}${webhookPath}` : "";
  const { entities, entityOf, loading } = useEntities();
  const record = isRecordTrigger(trigger.kind);
  const entity = record ? entityOf(trigger.resource) : undefined;
  // Any entity's record events come as "<entity> created / updated / deleted" (issue 30).
  const kindOptions = [
    {
      label: "Events",
      options: TRIGGER_KINDS.filter((k) => !isRecordTrigger(k)).map((k) => ({
        value: k,
        label: TRIGGER_LABELS[k],
      })),
    },
    {
      label: "Any record",
      options: [
        // A record trigger whose record is not chosen yet (or no longer exists) still shows its words.
        ...(record && !entity
          ? [{ value: trigger.kind, label: `${TRIGGER_LABELS[trigger.kind]}: choose the record` }]
          : []),
        ...recordTriggerOptions(entities),
      ],
    },
  ];
  const kindValue =
    record && entity && trigger.resource
      ? recordTriggerValue(trigger.kind as RecordTriggerKind, trigger.resource)
      : trigger.kind;
  const chooseKind = (value: string) => {
    const [kind, resource] = value.split("|") as [TriggerKind, string | undefined];
    if (!resource) onChange({ kind, resource: undefined, fields: undefined });
    else onChange({ kind, resource, ...(kind === "record-updated" ? {} : { fields: undefined }) });
  };
  return (
    <>
      <PanelItem id="af-trigger-kind" label="Starts when">
        <Select
          id="af-trigger-kind"
          showSearch
          optionFilterProp="label"
          loading={loading}
          value={kindValue}
          options={kindOptions}
          onChange={chooseKind}
        />
      </PanelItem>
      {trigger.kind === "record-updated" && (
        <PanelItem id="af-trigger-fields" label="When these fields change" extra="Empty: any field">
          <Select
            id="af-trigger-fields"
            mode="multiple"
            allowClear
            placeholder="Any field"
            optionFilterProp="label"
            value={trigger.fields ?? []}
            options={(entity?.fields ?? [])
              .filter((f) => !["id", "created_at", "updated_at"].includes(f.key))
              .map((f) => ({ value: f.key, label: f.title }))}
            onChange={(fields: string[]) => onChange({ fields: fields.length ? fields : undefined })}
          />
        </PanelItem>
      )}
      {trigger.kind === "opportunity-stage-changed" && (
        <PanelItem id="af-trigger-stage" label="To stage" extra="Empty: any stage">
          <Input
            id="af-trigger-stage"
            value={trigger.stage ?? ""}
            onChange={(e) => onChange({ stage: e.target.value || null })}
          />
        </PanelItem>
      )}
      {trigger.kind === "form-submitted" && (
        <PanelItem id="af-trigger-form" label="Form" extra="Empty: any form">
          <Select
            showSearch
            filterOption={false}
            options={forms.selectProps.options}
            onSearch={forms.selectProps.onSearch}
            loading={forms.selectProps.loading}
            id="af-trigger-form"
            allowClear
            value={trigger.formId ?? undefined}
            onChange={(formId?: string) => onChange({ formId: formId ?? null })}
          />
        </PanelItem>
      )}
      {trigger.kind === "cms-entry-published" && (
        <PanelItem id="af-trigger-type" label="Content type (API name)" extra="Empty: any type">
          <Input
            id="af-trigger-type"
            value={trigger.contentType ?? ""}
            onChange={(e) => onChange({ contentType: e.target.value || null })}
          />
        </PanelItem>
      )}
      {trigger.kind === "schedule" && (
        <>
          <PanelItem
            id="af-trigger-cron"
            label="Schedule (cron)"
            extra="minute hour day month weekday: 0 9 * * 1-5 is 9:00 on weekdays"
          >
            <Input
              id="af-trigger-cron"
              value={trigger.cron ?? ""}
              onChange={(e) => onChange({ cron: e.target.value })}
            />
          </PanelItem>
          <ZoneItem
            id="af-trigger-zone"
            value={trigger.timeZone}
            onChange={(timeZone) => onChange({ timeZone })}
          />
        </>
      )}
      {trigger.kind === "webhook" && (
        <PanelItem
          id="af-trigger-url"
          label="Call this address"
          extra="POST a JSON object; its fields are the trigger's record. Active once published."
        >
          <Space.Compact block>
            <Input id="af-trigger-url" readOnly value={webhookUrl} />
            <Button
              icon={<CopyOutlined aria-hidden />}
              aria-label="Copy the address"
              onClick={() =>
                void navigator.clipboard?.writeText(webhookUrl).then(() => message.success("Address copied"))
              }
            />
          </Space.Compact>
        </PanelItem>
      )}
      {trigger.kind !== "schedule" && (
        <PanelItem id="af-trigger-filter-match" label="Only when (optional)">
          <ConditionEditor
            id="af-trigger-filter"
            value={filter}
            fields={fields}
            onChange={(next) => onChange({ filter: next.value })}
          />
        </PanelItem>
      )}
    </>
  );
}

export function ConditionForm({
  step,
  fields,
  onChange,
}: {
  step: Omit<ConditionStep, "branches">;
  fields: readonly MergeField[];
  onChange: (changes: Partial<ConditionStep>) => void;
}) {
  return (
    <PanelItem
      id="af-condition-match"
      label="Rules"
      extra="Runs the Yes branch when they hold, the No branch when not."
    >
      <ConditionEditor
        id="af-condition"
        value={step.condition}
        fields={fields}
        onChange={(condition) => onChange({ condition })}
      />
    </PanelItem>
  );
}

export function DelayForm({
  step,
  onChange,
}: {
  step: DelayStep;
  onChange: (changes: Partial<DelayStep>) => void;
}) {
  return (
    <>
      <Radio.Group
        aria-label="Wait"
        value={step.mode}
        onChange={(e) => onChange({ mode: e.target.value })}
        options={[
          { value: "for", label: "For a while" },
          { value: "until", label: "Until a date" },
        ]}
        optionType="button"
        style={{ marginBottom: 16 }}
      />
      {step.mode === "for" ? (
        <PanelItem id="af-delay-amount" label="Wait for">
          <Duration
            id="af-delay-amount"
            amount={step.amount}
            unit={step.unit}
            onChange={(amount, unit) => onChange({ amount, unit })}
          />
        </PanelItem>
      ) : (
        <>
          <PanelItem id="af-delay-until" label="Until">
            <Input
              id="af-delay-until"
              type="datetime-local"
              value={step.until ?? ""}
              onChange={(e) => onChange({ until: e.target.value })}
            />
          </PanelItem>
          <ZoneItem
            id="af-delay-zone"
            value={step.timeZone}
            onChange={(timeZone) => onChange({ timeZone })}
          />
        </>
      )}
      <Typography.Paragraph type="secondary">
        The wait is kept by the server: a restart does not lose it.
      </Typography.Paragraph>
    </>
  );
}

export function WaitForm({
  step,
  onChange,
}: {
  step: Omit<WaitForEventStep, "branches">;
  onChange: (changes: Partial<WaitForEventStep>) => void;
}) {
  return (
    <>
      <PanelItem id="af-wait-event" label="Wait until">
        <Select
          id="af-wait-event"
          value={step.event ?? undefined}
          placeholder="Choose an event"
          options={WAIT_EVENTS.map((e) => ({ value: e, label: WAIT_EVENT_LABELS[e] }))}
          onChange={(event) => onChange({ event })}
        />
      </PanelItem>
      <PanelItem id="af-wait-timeout" label="At most" extra="Then the Timeout branch runs.">
        <Duration
          id="af-wait-timeout"
          amount={step.timeout.amount}
          unit={step.timeout.unit}
          onChange={(amount, unit) => onChange({ timeout: { amount, unit } })}
        />
      </PanelItem>
    </>
  );
}
