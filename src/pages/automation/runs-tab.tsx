/**
 * An automation's run history: its runs newest first, filtered by status, following runs as
 * they move (live); a run opens in a drawer (run-drawer.tsx) with each step in words.
 */
import { useSubscription } from "@refinedev/core";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Empty, Segmented, Table, Tag } from "antd";
import { useRef, useState } from "react";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import {
  type AutomationRun,
  automationKeys,
  getRuns,
  getVersionDefinition,
  RUN_STATUSES,
  type RunStatus,
} from "./automation-api";
import { capital, RUN_STATUS_COLORS, RunDrawer } from "./run-drawer";
import { exitReasonText, stepWords } from "./run-words";

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
  const [status, setStatus] = useState<RunStatus | "all">("all");
  const [page, setPage] = useState(1);
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
        onRow={(run) => ({ onClick: () => show(run.id), className: "af-run-row" })}
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
            render: (_, run) =>
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
