/**
 * An action step's form: what it does (the spec's action type, stored as the option's value
 * with underscores), then the inputs that type reads (ACTION_INPUTS). Texts take variables
 * ("Insert variable" puts `{{…}}` in): the trigger's record, the client, earlier steps' outputs.
 */
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useSelect } from "@refinedev/antd";
import type { BaseRecord } from "@refinedev/core";
import { AutoComplete, Button, Input, Select, Space } from "antd";
import {
  ACTION_INPUTS,
  ACTION_OPTIONS,
  type ActionInputs,
  type ActionStep,
  HTTP_METHODS,
} from "../../../schemas/automation";
import { MergeLine, MergeText } from "../crm/email/merge-inputs";
import { PanelItem } from "../forms/panel-item";
import { entityOptions, useEntities } from "./entities";
import type { VariableGroup } from "./variables";

interface ActionFormProps {
  step: ActionStep;
  /** The chosen option ("send email"), from the page's state. */
  option: string | undefined;
  groups: readonly VariableGroup[];
  onChooseType: (option: string) => void;
  onInputs: (inputs: ActionInputs) => void;
}

/** Rows of name and value (record fields, HTTP headers). */
function Pairs({
  id,
  rows,
  nameLabel,
  names,
  groups,
  onChange,
}: {
  id: string;
  rows: ReadonlyArray<{ name: string; value: string }>;
  nameLabel: string;
  /** The names to offer (a record's fields), typed or picked. */
  names?: ReadonlyArray<{ value: string; label: string }>;
  groups: readonly VariableGroup[];
  onChange: (rows: Array<{ name: string; value: string }>) => void;
}) {
  const set = (i: number, row: { name: string; value: string } | null) =>
    onChange(row === null ? rows.filter((_, j) => j !== i) : rows.map((r, j) => (j === i ? row : r)));
  return (
    <div className="af-pairs">
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place.
        <Space.Compact key={i} block className="af-pair">
          {names ? (
            <AutoComplete
              id={`${id}-${i}-name`}
              aria-label={`${nameLabel} ${i + 1}`}
              placeholder={nameLabel}
              value={row.name}
              options={names.map((n) => ({ value: n.value, label: `${n.label} (${n.value})` }))}
              filterOption={(typed, option) =>
                String(option?.label ?? "")
                  .toLowerCase()
                  .includes(typed.toLowerCase())
              }
              onChange={(name: string) => set(i, { ...row, name })}
              style={{ width: "40%" }}
            />
          ) : (
            <Input
              id={`${id}-${i}-name`}
              aria-label={`${nameLabel} ${i + 1}`}
              placeholder={nameLabel}
              value={row.name}
              onChange={(e) => set(i, { ...row, name: e.target.value })}
              style={{ width: "40%" }}
            />
          )}
          <MergeLine
            id={`${id}-${i}-value`}
            value={row.value}
            groups={groups}
            onChange={(value) => set(i, { ...row, value })}
          />
          <Button
            danger
            icon={<DeleteOutlined aria-hidden />}
            aria-label={`Remove ${nameLabel.toLowerCase()} ${i + 1}`}
            onClick={() => set(i, null)}
          />
        </Space.Compact>
      ))}
      <Button
        size="small"
        icon={<PlusOutlined aria-hidden />}
        onClick={() => onChange([...rows, { name: "", value: "" }])}
      >
        Add {nameLabel.toLowerCase()}
      </Button>
    </div>
  );
}

export function ActionForm({ step, option, groups, onChooseType, onInputs }: ActionFormProps) {
  const inputs = step.inputs;
  const reads = new Set<string>(step.type ? ACTION_INPUTS[step.type] : []);
  const set = (changes: Partial<ActionInputs>) => onInputs({ ...inputs, ...changes });
  const sequences = useSelect<BaseRecord>({
    resource: "sequences",
    optionLabel: (s) => String(s.name),
    optionValue: (s) => String(s.id),
    pagination: { pageSize: 50 },
    queryOptions: { enabled: step.type === "enrol_in_sequence" },
  });
  const entities = useEntities();
  const entity = entities.entityOf(inputs.resource);
  /** The chosen record's fields, to pick (writable ones to set). */
  const fieldNames = (writable: boolean) =>
    entity?.fields.filter((f) => !writable || f.writable).map((f) => ({ value: f.key, label: f.title }));
  const text = (key: "to" | "subject" | "recordId" | "url", label: string, extra?: string) =>
    reads.has(key) && (
      <PanelItem id={`af-action-${key}`} label={label} extra={extra}>
        <MergeLine
          id={`af-action-${key}`}
          value={inputs[key] ?? ""}
          groups={groups}
          maxLength={2000}
          onChange={(v) => set({ [key]: v })}
        />
      </PanelItem>
    );
  return (
    <>
      <PanelItem id="af-action-type" label="Does">
        <Select
          id="af-action-type"
          placeholder="Choose what this action does"
          value={option}
          options={ACTION_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
          onChange={onChooseType}
        />
      </PanelItem>
      {step.type === "send_email" &&
        text("to", "To", "{{client.email}} is the run's client: sent only if they agreed to email")}
      {step.type === "send_sms" &&
        text("to", "To", "{{client.phone}} is the run's client: sent only if they agreed to SMS")}
      {text("subject", "Subject")}
      {reads.has("resource") && (
        <PanelItem id="af-action-resource" label="Record">
          <Select
            id="af-action-resource"
            showSearch
            optionFilterProp="label"
            loading={entities.loading}
            value={inputs.resource}
            placeholder="Choose a kind of record"
            options={entityOptions(entities.entities, inputs.resource)}
            onChange={(resource: string) => set({ resource })}
          />
        </PanelItem>
      )}
      {text("recordId", "Record's ID", "Usually a variable: {{client.id}}")}
      {reads.has("method") && (
        <PanelItem id="af-action-method" label="Method">
          <Select
            id="af-action-method"
            value={inputs.method ?? "POST"}
            options={HTTP_METHODS.map((m) => ({ value: m, label: m }))}
            onChange={(method) => set({ method })}
          />
        </PanelItem>
      )}
      {text("url", "URL", "Addresses inside your network are refused unless the server allows them.")}
      {reads.has("headers") && (
        <PanelItem id="af-action-headers-0-name" label="Headers">
          <Pairs
            id="af-action-headers"
            nameLabel="Header"
            rows={inputs.headers ?? []}
            groups={groups}
            onChange={(headers) => set({ headers })}
          />
        </PanelItem>
      )}
      {reads.has("match") && (
        <PanelItem
          id="af-action-match-0-name"
          label="Find by"
          extra="The first record whose fields equal these values; {{steps.<this step>.record.…}} reads it."
        >
          <Pairs
            id="af-action-match"
            nameLabel="Field"
            names={fieldNames(false)}
            rows={Object.entries(inputs.match ?? {}).map(([name, value]) => ({ name, value }))}
            groups={groups}
            onChange={(rows) => set({ match: Object.fromEntries(rows.map((r) => [r.name, r.value])) })}
          />
        </PanelItem>
      )}
      {reads.has("fields") && (
        <PanelItem id="af-action-fields-0-name" label="Fields">
          <Pairs
            id="af-action-fields"
            nameLabel="Field"
            names={fieldNames(true)}
            rows={Object.entries(inputs.fields ?? {}).map(([name, value]) => ({ name, value }))}
            groups={groups}
            onChange={(rows) => set({ fields: Object.fromEntries(rows.map((r) => [r.name, r.value])) })}
          />
        </PanelItem>
      )}
      {reads.has("tag") && (
        <PanelItem id="af-action-tag" label="Tag">
          <Input
            id="af-action-tag"
            value={inputs.tag ?? ""}
            maxLength={50}
            onChange={(e) => set({ tag: e.target.value })}
          />
        </PanelItem>
      )}
      {reads.has("sequenceId") && (
        <PanelItem id="af-action-sequence" label="Sequence">
          <Select
            showSearch
            filterOption={false}
            options={sequences.selectProps.options}
            onSearch={sequences.selectProps.onSearch}
            loading={sequences.selectProps.loading}
            id="af-action-sequence"
            placeholder="Choose a sequence"
            value={inputs.sequenceId ?? undefined}
            onChange={(sequenceId?: string) => set({ sequenceId: sequenceId ?? null })}
          />
        </PanelItem>
      )}
      {reads.has("body") && (
        <PanelItem id="af-action-body" label={step.type === "http_request" ? "JSON body" : "Message"}>
          <MergeText
            id="af-action-body"
            value={inputs.body ?? ""}
            rows={step.type === "send_sms" ? 3 : 6}
            groups={groups}
            onChange={(body) => set({ body })}
          />
        </PanelItem>
      )}
    </>
  );
}
