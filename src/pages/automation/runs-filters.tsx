/**
 * The run history's filters (docs/automation-api.md, "When a run fails"): status, the step a run
 * is at (a failed run: the step it failed on), the day range it started in, and a search in the
 * trigger records (a client's name or email). Each is a query parameter of the runs route.
 */
import { Input, Select, Space } from "antd";
import { lazy, Suspense } from "react";
import { type AutomationDefinition, walkSteps } from "../../../schemas/automation";
import { RUN_STATUSES, type RunStatus } from "./automation-api";
import { capital } from "./run-drawer";
import { stepWords } from "./run-words";

const DateRangePicker = lazy(async () => ({
  default: (await import("../../resources/list/range-pickers")).DateRangePicker,
}));

export interface RunFilters {
  status?: RunStatus;
  step?: string;
  /** ISO instants: the start of the first day, the end of the last. */
  from?: string;
  to?: string;
  record?: string;
}

export function RunsFilters({
  value,
  onChange,
  definition,
}: {
  value: RunFilters;
  onChange: (next: RunFilters) => void;
  /** The flow whose steps the step filter offers (the draft: the steps as the canvas names them). */
  definition: AutomationDefinition | undefined;
}) {
  const steps = walkSteps(definition?.steps ?? []).map((s) => {
    const words = stepWords(definition, { key: s.id, type: "", input: null, output: null });
    return { value: s.id, label: `Step ${words.number} · ${words.title}` };
  });
  return (
    <Space wrap size={8} className="af-run-filters">
      <Select<RunStatus | "all">
        aria-label="Filter by status"
        value={value.status ?? "all"}
        style={{ width: 150 }}
        onChange={(s) => onChange({ ...value, status: s === "all" ? undefined : s })}
        options={[
          { value: "all", label: "Any status" },
          ...RUN_STATUSES.map((s) => ({ value: s, label: capital(s) })),
        ]}
      />
      <Select<string>
        aria-label="Filter by step"
        allowClear
        placeholder="Any step"
        value={value.step}
        style={{ width: 240 }}
        onChange={(step) => onChange({ ...value, step: step || undefined })}
        options={steps}
        notFoundContent="No step in the flow yet"
      />
      <Suspense fallback={<Input disabled placeholder="Started from – to" style={{ width: 290 }} />}>
        <DateRangePicker
          title="Started"
          granularity="instant"
          value={[value.from, value.to]}
          onChange={([from, to]) => onChange({ ...value, from, to })}
        />
      </Suspense>
      <Input.Search
        aria-label="Search the trigger records"
        placeholder="Search trigger records"
        allowClear
        defaultValue={value.record}
        style={{ width: 260 }}
        onSearch={(text) => onChange({ ...value, record: text.trim() || undefined })}
      />
    </Space>
  );
}

/** Whether any filter is set (the empty state says so). */
export const filtered = (f: RunFilters) => Boolean(f.status || f.step || f.from || f.to || f.record);
