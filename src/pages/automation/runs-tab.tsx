/**
 * An automation's run history: its runs newest first, filtered by status, step, dates and
 * trigger record (runs-filters.tsx), following runs as they move (live); a run opens in a drawer
 * (run-drawer.tsx) with each step in words. Failed runs are selected and run again in bulk, from
 * their failed step or from the start, after a confirmation that says how many.
 */
import { useSubscription } from "@refinedev/core";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Empty, Space, Table, Tag, Typography } from "antd";
import { useRef, useState } from "react";
import type { RetryFrom } from "../../../schemas/automation-failures";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { getErrorMessage } from "../../lib/errors";
import {
  type AutomationRun,
  automationKeys,
  getDraft,
  getRuns,
  getVersionDefinition,
  type RunStatus,
  retryRuns,
} from "./automation-api";
import { capital, RUN_STATUS_COLORS, RunDrawer } from "./run-drawer";
import { exitReasonText, stepWords } from "./run-words";
import { filtered, type RunFilters, RunsFilters } from "./runs-filters";

const PAGE_SIZE = 20;

/** The step a run is at, as the canvas of its version names it ("At step 2 · Welcome mail"). */
function AtStep({ id, version, stepKey }: { id: string; version: number; stepKey: string }) {
  // A published version never changes: read once per version, whatever the number of rows.
  const definition = useQuery({
    queryKey: automationKeys.version(id, version),
    queryFn: () => getVersionDefinition(id, version),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!definition.data) return null;
  const words = stepWords(definition.data, { key: stepKey, type: "", input: null, output: null });
  return <>{words.number === null ? "—" : `At step ${words.number} · ${words.title}`}</>;
}

export function RunsTab({ id, initialRun = null }: { id: string; initialRun?: string | null }) {
  const queryClient = useQueryClient();
  const { modal, message } = App.useApp();
  const [filters, setFilters] = useState<RunFilters>({});
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [retrying, setRetrying] = useState<RetryFrom | null>(null);
  const [open, setOpen] = useState<string | null>(initialRun);
  // The run last shown: its Open button takes focus when the drawer closes (a row clicked is
  // not focusable, so focus would fall to the page).
  const shown = useRef<string | null>(initialRun);
  const show = (runId: string) => {
    shown.current = runId;
    setOpen(runId);
  };
  const focusOpener = () =>
    requestAnimationFrame(() => {
      const id = shown.current;
      if (id) document.querySelector<HTMLElement>(`[data-run-open="${CSS.escape(id)}"]`)?.focus();
    });
  const query = { ...filters, page, pageSize: PAGE_SIZE };
  // The steps the step filter offers: the builder's draft (read once, shared with the builder).
  const draft = useQuery({ queryKey: automationKeys.draft(id), queryFn: () => getDraft(id) });
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

  const retrySelected = (from: RetryFrom) => {
    const n = selected.length;
    const runsWord = n === 1 ? "failed run" : `${n} failed runs`;
    modal.confirm({
      title: `Retry ${n === 1 ? "1 failed run" : runsWord} ${from === "start" ? "from the start" : "from the failed step"}?`,
      content:
        from === "start"
          ? "Each starts again as a new run of the same version, with the same trigger record and client; the failed run is kept, marked as retried."
          : "Each goes on from the step it failed on, with fresh attempts.",
      okText: n === 1 ? "Retry 1 run" : `Retry ${n} runs`,
      cancelText: "Keep them",
      onOk: async () => {
        setRetrying(from);
        try {
          const answer = await retryRuns(id, selected, from);
          const others = answer.refused + answer.notFound;
          const done = `${answer.retried} ${answer.retried === 1 ? "run" : "runs"} running again`;
          if (others)
            message.warning(
              `${done}; ${others} could not be: ${answer.results.find((r) => r.message)?.message ?? ""}`,
            );
          else message.success(done);
          setSelected([]);
          await queryClient.invalidateQueries({ queryKey: automationKeys.runsOf(id) });
        } catch (error) {
          message.error(getErrorMessage(error));
        } finally {
          setRetrying(null);
        }
      },
    });
  };

  if (runs.isError && !runs.data)
    return <LoadError what="the runs" error={runs.error} onRetry={() => runs.refetch()} />;
  return (
    <div className="af-runs">
      <RunsFilters
        value={filters}
        definition={draft.data?.definition}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
          setSelected([]);
        }}
      />
      {selected.length > 0 && (
        <Space className="af-run-bulk" wrap aria-live="polite">
          <Typography.Text strong>
            {selected.length === 1 ? "1 failed run selected" : `${selected.length} failed runs selected`}
          </Typography.Text>
          <Button
            loading={retrying === "failed-step"}
            disabled={retrying !== null}
            onClick={() => retrySelected("failed-step")}
          >
            Retry from the failed step
          </Button>
          <Button
            type="primary"
            loading={retrying === "start"}
            disabled={retrying !== null}
            onClick={() => retrySelected("start")}
          >
            Retry from the start
          </Button>
          <Button type="link" onClick={() => setSelected([])}>
            Clear selection
          </Button>
        </Space>
      )}
      <Table<AutomationRun>
        rowKey="id"
        size="middle"
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as string[]),
          // Only failed runs can run again.
          getCheckboxProps: (run) => ({
            disabled: run.status !== "failed",
            "aria-label": `Select the run of ${new Date(run.startedAt).toLocaleString("en-IN")}`,
          }),
        }}
        loading={runs.isFetching && !runs.data}
        dataSource={runs.data?.data}
        onRow={(run) => ({ onClick: () => show(run.id), className: "af-run-row" })}
        locale={{
          emptyText: (
            <Empty
              description={
                !filtered(filters)
                  ? "No run yet: publish, then let the trigger happen or run it by hand"
                  : "No run matches these filters"
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
            render: (_, run) =>
              (run.exitReason === "retried" ? exitReasonText(run.exitReason) : null) ??
              run.error ??
              (run.exitReason ? exitReasonText(run.exitReason) : null) ??
              (run.cursor ? <AtStep id={id} version={run.version} stepKey={run.cursor} /> : "—"),
            ellipsis: true,
          },
          {
            title: "",
            width: 90,
            render: (_, run) => (
              <Button
                size="small"
                data-run-open={run.id}
                onClick={(event) => {
                  event.stopPropagation();
                  show(run.id);
                }}
                aria-label={`Open the run of ${new Date(run.startedAt).toLocaleString("en-IN")}`}
              >
                Open
              </Button>
            ),
          },
        ]}
      />
      <RunDrawer runId={open} onClose={() => setOpen(null)} afterClose={focusOpener} />
    </div>
  );
}
