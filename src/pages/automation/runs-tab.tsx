/**
 * An automation's run history: its runs newest first, filtered by status, following runs as
 * they move (live); a run opens in a drawer with each step's input, output, timing and error,
 * and a failed run can be run again from the step it failed on.
 */
import { RedoOutlined } from "@ant-design/icons";
import { useSubscription } from "@refinedev/core";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Descriptions, Drawer, Empty, Segmented, Table, Tag, Timeline, Typography } from "antd";
import { useState } from "react";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { getErrorMessage } from "../../lib/errors";
import {
  type AutomationRun,
  automationKeys,
  getRun,
  getRuns,
  RUN_STATUSES,
  type RunStatus,
  type RunStep,
  retryRun,
} from "./automation-api";

export const RUN_STATUS_COLORS: Readonly<Record<RunStatus, string>> = {
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
const PAGE_SIZE = 20;

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  return <pre className="af-json">{JSON.stringify(value, null, 2)}</pre>;
}

function RunDrawer({ runId, onClose }: { runId: string | null; onClose: () => void }) {
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
      width={560}
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
            {data.exitReason && <Descriptions.Item label="Left because">{data.exitReason}</Descriptions.Item>}
          </Descriptions>
          <Timeline
            items={data.steps.map((step) => ({
              color: STEP_COLORS[step.status],
              children: (
                <div className="af-run-step" data-testid="run-step">
                  <div>
                    <strong>{step.key}</strong> <Tag>{step.type}</Tag>
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
                      ` · ${Math.max(0, Date.parse(step.finishedAt) - Date.parse(step.startedAt))} ms`}
                  </Typography.Text>
                  {step.error && <Typography.Paragraph type="danger">{step.error}</Typography.Paragraph>}
                  <details>
                    <summary>Input and output</summary>
                    <Json value={step.input} />
                    <Json value={step.output} />
                  </details>
                </div>
              ),
            }))}
          />
        </>
      )}
    </Drawer>
  );
}

export function RunsTab({ id, initialRun = null }: { id: string; initialRun?: string | null }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<RunStatus | "all">("all");
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(initialRun);
  const query = { status: status === "all" ? undefined : status, page, pageSize: PAGE_SIZE };
  const runs = useQuery({
    queryKey: automationKeys.runs(id, query),
    queryFn: () => getRuns(id, query),
    placeholderData: keepPreviousData,
  });

  useSubscription({
    channel: "resources/automation-runs",
    types: ["updated"],
    onLiveEvent: (event) => {
      if (!((event.payload as { ids?: string[] }).ids ?? []).includes(id)) return;
      void queryClient.invalidateQueries({ queryKey: automationKeys.runsOf(id) });
      if (open) void queryClient.invalidateQueries({ queryKey: automationKeys.run(open) });
    },
  });

  if (runs.isError && !runs.data)
    return <LoadError what="the runs" error={runs.error} onRetry={() => runs.refetch()} />;
  return (
    <div className="af-runs">
      <Segmented<RunStatus | "all">
        aria-label="Show runs"
        value={status}
        onChange={(s) => {
          setStatus(s);
          setPage(1);
        }}
        options={[
          { value: "all", label: "All" },
          ...RUN_STATUSES.map((s) => ({ value: s, label: capital(s) })),
        ]}
      />
      <Table<AutomationRun>
        rowKey="id"
        size="middle"
        loading={runs.isFetching && !runs.data}
        dataSource={runs.data?.data}
        onRow={(run) => ({ onClick: () => setOpen(run.id), className: "af-run-row" })}
        locale={{
          emptyText: (
            <Empty
              description={
                status === "all"
                  ? "No run yet: publish, then let the trigger happen or run it by hand"
                  : `No ${status} run`
              }
            />
          ),
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: runs.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { title: "Started", dataIndex: "startedAt", render: (v: string) => <DateText value={v} /> },
          {
            title: "Status",
            dataIndex: "status",
            render: (s: RunStatus) => <Tag color={RUN_STATUS_COLORS[s]}>{capital(s)}</Tag>,
          },
          { title: "Version", dataIndex: "version", width: 90 },
          { title: "Steps", dataIndex: "stepsReached", width: 80 },
          {
            title: "Where / why",
            render: (_, run) => run.error ?? run.exitReason ?? run.cursor ?? "—",
            ellipsis: true,
          },
          {
            title: "",
            width: 90,
            render: (_, run) => (
              <Button
                size="small"
                onClick={() => setOpen(run.id)}
                aria-label={`Open the run of ${new Date(run.startedAt).toLocaleString("en-IN")}`}
              >
                Open
              </Button>
            ),
          },
        ]}
      />
      <RunDrawer runId={open} onClose={() => setOpen(null)} />
    </div>
  );
}
