/**
 * One run of an automation, in a drawer: its status and version, then each step it reached as
 * the canvas names it ("Step 1 · Condition", a name a person gave it), the branch it took in
 * words, its input and output as labelled fields (the raw JSON behind "Show JSON"), timing and
 * error. A failed run can be run again from the step it failed on.
 */
import { RedoOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Descriptions, Drawer, Tag, Timeline, Typography } from "antd";
import { useId, useState } from "react";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { getErrorMessage } from "../../lib/errors";
import { automationKeys, getRun, type RunStep, type RunWithSteps, retryRun } from "./automation-api";
import { exitReasonText, type RunField, stepWords } from "./run-words";

export const RUN_STATUS_COLORS: Readonly<Record<RunWithSteps["status"], string>> = {
  running: "processing",
  waiting: "blue",
  finished: "success",
  failed: "error",
  exited: "default",
  cancelled: "default",
};
const STEP_COLORS: Readonly<Record<RunStep["status"], string>> = {
  scheduled: "blue",
  waiting: "blue",
  done: "green",
  failed: "red",
  skipped: "gray",
};

export const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A step's input or output as labelled fields, or why there is none. */
export function Fields({ title, fields }: { title: string; fields: RunField[] }) {
  if (!fields.length) return null;
  return (
    <Descriptions
      title={title}
      column={1}
      size="small"
      bordered
      className="af-run-fields"
      items={fields.map((f, i) => ({
        key: `${f.label}-${i}`,
        label: f.label,
        children: <span className="af-run-value">{f.value}</span>,
      }))}
    />
  );
}

/** The step's raw input and output, for whoever needs them, behind a toggle. */
function RawJson({ step }: { step: RunStep }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (step.input == null && step.output == null) return null;
  return (
    <div>
      <Button
        type="link"
        size="small"
        className="af-json-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {open ? "Hide JSON" : "Show JSON"}
      </Button>
      {open && (
        <pre id={id} className="af-json">
          {JSON.stringify({ input: step.input ?? null, output: step.output ?? null }, null, 2)}
        </pre>
      )}
    </div>
  );
}

function StepItem({ run, step }: { run: RunWithSteps; step: RunStep }) {
  const words = stepWords(run.definition, step);
  return (
    <div className="af-run-step" data-testid="run-step">
      <div className="af-run-step-head">
        <strong>
          {words.number !== null && <span className="af-run-step-number">Step {words.number} · </span>}
          {words.title}
        </strong>
        {words.kind && <Tag>{words.kind}</Tag>}
        <Tag color={STEP_COLORS[step.status]}>{capital(step.status)}</Tag>
        {step.attempt > 1 && <Tag>Attempt {step.attempt}</Tag>}
      </div>
      <Typography.Text type="secondary">
        {step.startedAt ? (
          <DateText value={step.startedAt} />
        ) : (
          <>
            Due <DateText value={step.dueAt} />
          </>
        )}
        {step.startedAt &&
          step.finishedAt &&
          ` · took ${Math.max(0, Date.parse(step.finishedAt) - Date.parse(step.startedAt))} ms`}
      </Typography.Text>
      {words.outcome && <div className="af-run-outcome">{words.outcome}</div>}
      {step.error && <Typography.Paragraph type="danger">{step.error}</Typography.Paragraph>}
      <Fields title="Input" fields={words.input} />
      <Fields title="Output" fields={words.output} />
      <RawJson step={step} />
    </div>
  );
}

export function RunDrawer({
  runId,
  onClose,
  afterClose,
}: {
  runId: string | null;
  onClose: () => void;
  /** Once it has closed: the opener puts focus back where the person was. */
  afterClose?: () => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const run = useQuery({
    queryKey: automationKeys.run(runId ?? ""),
    queryFn: () => getRun(runId ?? ""),
    enabled: Boolean(runId),
  });
  const [retrying, setRetrying] = useState(false);
  const retry = async () => {
    if (!runId) return;
    setRetrying(true);
    try {
      await retryRun(runId);
      message.success("Running again from the step that failed");
      await queryClient.invalidateQueries({ queryKey: ["automations"] });
      await run.refetch();
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setRetrying(false);
    }
  };
  const data = run.data;
  return (
    <Drawer
      open={Boolean(runId)}
      onClose={onClose}
      afterOpenChange={(open) => {
        if (!open) afterClose?.();
      }}
      width={600}
      title={
        data ? (
          <>
            Run of <DateText value={data.startedAt} />
          </>
        ) : (
          "Run"
        )
      }
      extra={
        data?.status === "failed" && (
          <Button type="primary" icon={<RedoOutlined aria-hidden />} loading={retrying} onClick={retry}>
            Run again from the failed step
          </Button>
        )
      }
    >
      {run.isError && <LoadError what="the run" error={run.error} onRetry={() => run.refetch()} compact />}
      {data && (
        <>
          <Descriptions column={2} size="small" className="af-run-facts">
            <Descriptions.Item label="Status">
              <Tag color={RUN_STATUS_COLORS[data.status]}>{capital(data.status)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Version">{data.version}</Descriptions.Item>
            {data.error && (
              <Descriptions.Item label="Error" span={2}>
                <Typography.Text type="danger">{data.error}</Typography.Text>
              </Descriptions.Item>
            )}
            {data.exitReason && (
              <Descriptions.Item label="Left because">{exitReasonText(data.exitReason)}</Descriptions.Item>
            )}
          </Descriptions>
          <Timeline
            items={data.steps.map((step) => ({
              key: `${step.seq}`,
              color: STEP_COLORS[step.status],
              children: <StepItem run={data} step={step} />,
            }))}
          />
        </>
      )}
    </Drawer>
  );
}
