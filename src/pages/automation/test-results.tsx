/**
 * A test run's results in the builder: the summary above the canvas (how far it went, what a
 * real run would have sent), each node's mark on the canvas (`testMarkOf`), and the selected
 * node's result in the sidebar: its status, the branch it took, its note, what to fix when it
 * failed, its inputs and outputs as labelled fields (variables filled in), and "Test this step".
 */
import {
  BranchesOutlined,
  CheckCircleFilled,
  CloseCircleFilled,
  ExperimentOutlined,
  MinusCircleFilled,
} from "@ant-design/icons";
import { Alert, Button, Space, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import { BRANCH_LABELS, type Branch, TRIGGER_ID } from "../../../schemas/automation";
import { plural } from "../../lib/text";
import { Fields } from "./run-drawer";
import { type RunField, runFields, valueText } from "./run-words";
import type { TestRun, TestStatus, TestStepResult } from "./test-api";

/** A node's mark on the canvas: its status in words, with an icon and a colour class. */
export interface TestMark {
  status: TestStatus;
  text: string;
}

const ICONS: Readonly<Record<TestStatus, ReactNode>> = {
  passed: <CheckCircleFilled aria-hidden />,
  failed: <CloseCircleFilled aria-hidden />,
  skipped: <MinusCircleFilled aria-hidden />,
  branch: <BranchesOutlined aria-hidden />,
};
const COLORS: Readonly<Record<TestStatus, string>> = {
  passed: "success",
  failed: "error",
  skipped: "default",
  branch: "processing",
};

export const testIcon = (status: TestStatus) => ICONS[status];

const branchWord = (branch: string | undefined) =>
  branch ? (BRANCH_LABELS[branch as Branch] ?? branch) : "";

/** The words of a node's test status ("Passed", "Took Yes", "Skipped · Event"). */
export function testMarkOf(result: TestStepResult): TestMark {
  const text =
    result.status === "branch"
      ? `Took ${branchWord(result.branch)}`
      : result.status === "skipped" && result.branch
        ? `Skipped, then ${branchWord(result.branch)}`
        : result.status.charAt(0).toUpperCase() + result.status.slice(1);
  return { status: result.status, text };
}

/** Each tested node's mark, by node id. */
export const testMarks = (test: TestRun | null): ReadonlyMap<string, TestMark> =>
  new Map((test?.steps ?? []).map((s) => [s.id, testMarkOf(s)]));

/** A node's inputs or outputs as labelled fields (the ids a record's step made included). */
function fieldsOf(result: TestStepResult, which: "inputs" | "outputs"): RunField[] {
  const value = result[which];
  const fields = runFields(value, undefined, which === "outputs" ? result.inputs : null);
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const extra: RunField[] = [];
    if (record.name !== undefined && result.id === TRIGGER_ID)
      extra.push({ label: "Name", value: valueText(record.name) });
    if (record.id !== undefined && which === "outputs")
      extra.push({ label: "ID", value: valueText(record.id) });
    return [...extra, ...fields];
  }
  return fields;
}

/** The selected node's result in the sidebar. */
export function TestStepPanel({
  result,
  testing,
  onTestStep,
}: {
  result: TestStepResult;
  testing: boolean;
  onTestStep?: () => void;
}) {
  const mark = testMarkOf(result);
  return (
    <section className="af-test-panel" aria-label="Test result of this step" data-testid="test-step-result">
      <div className="af-test-panel-head">
        <Typography.Title level={5}>Test result</Typography.Title>
        <Tag color={COLORS[result.status]} icon={ICONS[result.status]}>
          {mark.text}
        </Tag>
      </div>
      {result.status === "failed" ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={result.error}
          description={result.fix ? <span>What to fix: {result.fix}</span> : undefined}
        />
      ) : (
        result.note && <Typography.Paragraph className="af-test-note">{result.note}</Typography.Paragraph>
      )}
      <Fields
        title={result.id === TRIGGER_ID ? "Sample" : "Inputs (variables filled in)"}
        fields={fieldsOf(result, "inputs")}
      />
      <Fields
        title={result.id === TRIGGER_ID ? "The trigger's record" : "Outputs"}
        fields={fieldsOf(result, "outputs")}
      />
      {onTestStep && (
        <Button icon={<ExperimentOutlined aria-hidden />} loading={testing} onClick={onTestStep}>
          Test this step
        </Button>
      )}
    </section>
  );
}

const CHANNEL_WORDS: Readonly<Record<string, string>> = { email: "email", sms: "SMS", http: "request" };

/** The summary above the canvas: how far the test went, and what a real run would have sent. */
export function TestSummary({
  test,
  stale,
  onSelect,
  onClear,
}: {
  test: TestRun;
  stale: boolean;
  onSelect: (nodeId: string) => void;
  onClear: () => void;
}) {
  const failed = test.steps.find((s) => s.status === "failed");
  const steps = test.steps.filter((s) => s.id !== TRIGGER_ID);
  const counts = new Map<string, number>();
  for (const s of test.sent) counts.set(s.channel, (counts.get(s.channel) ?? 0) + 1);
  const wouldSend = [...counts.entries()]
    .map(([c, n]) => plural(n, CHANNEL_WORDS[c] ?? c, c === "sms" ? "SMS" : undefined))
    .join(", ");
  const outcome = `Nothing was sent${wouldSend ? ` (a real run would send ${wouldSend})` : ""} and nothing was kept.`;
  return (
    <Alert
      type={failed ? "error" : "success"}
      showIcon
      className="af-test-summary"
      role="status"
      message={
        <Space size={4} wrap>
          {failed ? (
            <span>
              Test run stopped at{" "}
              <Button type="link" size="small" className="af-inline-link" onClick={() => onSelect(failed.id)}>
                {failed.id === TRIGGER_ID ? "the trigger" : `Step ${failed.number} · ${failed.title}`}
              </Button>
              — {failed.error?.replace(/\.$/, "")}.
            </span>
          ) : (
            <strong>Test run passed: {plural(steps.length, "step")} ran on the draft.</strong>
          )}
          <span>{outcome}</span>
          {stale && <Tag color="gold">The flow changed since this test</Tag>}
        </Space>
      }
      action={
        <Button size="small" onClick={onClear}>
          Hide results
        </Button>
      }
    />
  );
}
