/**
 * The sample a test run starts with: a real record of the trigger's kind (searched on the
 * server), or values typed for the trigger's variables. Enter in a field runs the test.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Form, Input, Modal, Radio, Select, Typography } from "antd";
import { useEffect, useState } from "react";
import type { MergeField } from "../../../schemas/merge-fields";
import { getErrorMessage } from "../../lib/errors";
import { getTestSamples, type TestSample, testKeys } from "./test-api";

interface TestSampleDialogProps {
  open: boolean;
  automationId: string;
  /** The trigger's variables (`trigger.<field>`), for a sample of typed values. */
  fields: readonly MergeField[];
  running: boolean;
  /** What the server said about the last try (a field's message), if anything. */
  error: string | null;
  onRun: (sample: TestSample) => void;
  onCancel: () => void;
}

/** Fields a person types a value for: leaves, not whole objects. */
const typeable = (fields: readonly MergeField[]) =>
  fields.filter((f) => f.key.startsWith("trigger.") && !/\.(answers|items|utm)$/.test(f.key)).slice(0, 24);

/** `field = value` lines as values (a line without `=` is left out). */
export function otherValues(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const at = line.indexOf("=");
    const key = line.slice(0, at).trim();
    if (at > 0 && key) values[key] = line.slice(at + 1).trim();
  }
  return values;
}

export function TestSampleDialog({
  open,
  automationId,
  fields,
  running,
  error,
  onRun,
  onCancel,
}: TestSampleDialogProps) {
  const [search, setSearch] = useState("");
  const [q, setQ] = useState("");
  const [mode, setMode] = useState<"record" | "variables">("record");
  const [recordId, setRecordId] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [others, setOthers] = useState("");
  // A search goes out a moment after the last key, not on each.
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 250);
    return () => clearTimeout(timer);
  }, [search]);
  const samples = useQuery({
    queryKey: testKeys.samples(automationId, q),
    queryFn: () => getTestSamples(automationId, q),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const noun = samples.data?.noun ?? null;
  const useRecord = mode === "record" && noun !== null;
  useEffect(() => {
    if (samples.isSuccess && samples.data.noun === null) setMode("variables");
  }, [samples.isSuccess, samples.data]);

  const shown = typeable(fields);
  const submit = () => {
    if (useRecord) {
      if (recordId) onRun({ kind: "record", id: recordId });
      return;
    }
    const filled = {
      ...otherValues(others),
      ...Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== "")),
    };
    onRun({ kind: "variables", values: filled });
  };

  return (
    <Modal
      open={open}
      title="Test the draft"
      okText="Run test"
      onOk={submit}
      okButtonProps={{ loading: running, disabled: useRecord && !recordId }}
      onCancel={onCancel}
      destroyOnHidden
      width={560}
    >
      <Typography.Paragraph type="secondary">
        The draft runs now against the sample you pick. Nothing is sent (emails, SMS, requests are shown, not
        sent) and nothing is kept (record changes are undone). Delays and waits are skipped.
      </Typography.Paragraph>
      {samples.isError && <Alert type="error" showIcon message={getErrorMessage(samples.error)} />}
      {noun !== null && (
        <Radio.Group
          value={mode}
          onChange={(e) => setMode(e.target.value)}
          className="af-test-mode"
          options={[
            { value: "record", label: `A real ${noun}` },
            { value: "variables", label: "Values I type" },
          ]}
        />
      )}
      <Form layout="vertical" component="div" className="af-test-form">
        {useRecord ? (
          <Form.Item label={`The ${noun} to test with`} htmlFor="af-test-record" required>
            <Select
              id="af-test-record"
              showSearch
              autoFocus
              value={recordId}
              placeholder={`Search by name or email`}
              filterOption={false}
              onSearch={setSearch}
              onChange={setRecordId}
              loading={samples.isFetching}
              notFoundContent={samples.isFetching ? "Searching…" : `No ${noun} found`}
              options={(samples.data?.data ?? []).map((c) => ({
                value: c.id,
                label: c.description ? `${c.label} — ${c.description}` : c.label,
              }))}
            />
          </Form.Item>
        ) : (
          shown.map((f, i) => (
            <Form.Item key={f.key} label={f.label} htmlFor={`af-test-${f.key}`}>
              <Input
                id={`af-test-${f.key}`}
                autoFocus={i === 0}
                value={values[f.key] ?? ""}
                placeholder={`{{${f.key}}}`}
                onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
                onPressEnter={submit}
              />
            </Form.Item>
          ))
        )}
        {!useRecord && (
          <Form.Item
            label={shown.length ? "Other fields" : "The trigger's fields"}
            htmlFor="af-test-others"
            extra="One a line, as field = value (order.total = 1200); dots reach inside."
          >
            <Input.TextArea
              id="af-test-others"
              autoFocus={!shown.length}
              rows={3}
              value={others}
              placeholder="order.total = 1200"
              onChange={(e) => setOthers(e.target.value)}
            />
          </Form.Item>
        )}
      </Form>
      {error && <Alert type="error" showIcon message={error} role="alert" />}
    </Modal>
  );
}
