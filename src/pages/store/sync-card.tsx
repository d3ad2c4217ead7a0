/**
 * The store sync on the Online store page (issue 18): "Sync now" per store starts one (or joins
 * the one under way); this card follows the latest with a progress bar (done of total store
 * products), then shows its report: the counts, and every line with what was done and why,
 * filterable by what was done.
 */
import { useSubscription } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Card, Empty, Progress, Segmented, Space, Table, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { formatPercent } from "../../../schemas/money";
import type { StoreConnection } from "../../../schemas/store";
import type { StoreSync, StoreSyncAction, StoreSyncRow } from "../../../schemas/store-sync";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { getErrorMessage } from "../../lib/errors";
import { getSync, listSyncs, startSync, syncKeys } from "./sync-api";

const ACTION_LABELS: Record<StoreSyncAction, { label: string; color: string }> = {
  created: { label: "Created", color: "success" },
  updated: { label: "Updated", color: "processing" },
  conflict: { label: "Conflict", color: "warning" },
  skipped: { label: "Skipped", color: "default" },
};

const running = (sync: StoreSync | undefined) => sync?.status === "queued" || sync?.status === "running";

/** Starts syncs, and remembers which one the card follows. */
export function useStoreSync() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [watching, setWatching] = useState<string | null>(null);
  const [starting, setStarting] = useState<string | null>(null);
  const start = async (connection: StoreConnection) => {
    setStarting(connection.id);
    try {
      const sync = await startSync(connection.id);
      setWatching(sync.id);
      message.info(
        sync.status === "running"
          ? `${connection.name} is being synced already`
          : `Syncing ${connection.name}`,
      );
      await queryClient.invalidateQueries({ queryKey: syncKeys.syncs });
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setStarting(null);
    }
  };
  return { watching, starting, start };
}

function SyncProgress({ sync }: { sync: StoreSync }) {
  const percent = sync.total ? Math.min(100, Math.round((sync.done / sync.total) * 100)) : 0;
  return (
    <div
      role="progressbar"
      aria-label="Sync progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${formatPercent(percent)}: ${sync.done} of ${sync.total} store products`}
    >
      <Progress percent={percent} status="active" />
      <Typography.Text type="secondary">
        {sync.status === "queued"
          ? "Waiting to start…"
          : `${sync.done} of ${sync.total || "…"} store products (${formatPercent(percent)})`}
      </Typography.Text>
    </div>
  );
}

function Report({ id }: { id: string }) {
  const report = useQuery({ queryKey: syncKeys.sync(id), queryFn: () => getSync(id) });
  const [action, setAction] = useState<StoreSyncAction | "all">("all");
  if (report.isError)
    return <LoadError compact what="sync report" error={report.error} onRetry={() => report.refetch()} />;
  const rows = report.data?.report ?? [];
  const shown = action === "all" ? rows : rows.filter((r) => r.action === action);
  const count = (a: StoreSyncAction) => rows.filter((r) => r.action === a).length;
  return (
    // A region of its own: the store's product list below shows the same SKUs.
    <section aria-label="Sync report">
      <Space direction="vertical" style={{ width: "100%" }}>
        <Segmented<StoreSyncAction | "all">
          aria-label="Show report lines"
          value={action}
          onChange={setAction}
          options={[
            { value: "all", label: `All (${rows.length})` },
            ...(Object.keys(ACTION_LABELS) as StoreSyncAction[]).map((a) => ({
              value: a,
              label: `${ACTION_LABELS[a].label} (${count(a)})`,
            })),
          ]}
        />
        <Table<StoreSyncRow>
          size="small"
          loading={report.isLoading}
          dataSource={shown}
          rowKey={(r) => `${r.bcProductId}:${r.bcVariantId ?? 0}:${r.sku}`}
          pagination={{ defaultPageSize: 10, showSizeChanger: true }}
          locale={{ emptyText: <Empty description="No lines of this kind" /> }}
          columns={[
            {
              title: "SKU",
              dataIndex: "sku",
              width: 180,
              render: (sku: string) => (sku ? <Typography.Text code>{sku}</Typography.Text> : "—"),
            },
            {
              title: "Store product",
              key: "store",
              width: 150,
              render: (_, r) => `#${r.bcProductId}${r.bcVariantId ? ` · variant #${r.bcVariantId}` : ""}`,
            },
            {
              title: "Done",
              dataIndex: "action",
              width: 120,
              render: (a: StoreSyncAction) => (
                <Tag color={ACTION_LABELS[a].color}>{ACTION_LABELS[a].label}</Tag>
              ),
            },
            { title: "Why", dataIndex: "reason", render: (reason: string) => reason || "—" },
          ]}
        />
      </Space>
    </section>
  );
}

export function SyncCard({
  watching,
  connections,
}: {
  watching: string | null;
  connections: StoreConnection[];
}) {
  const queryClient = useQueryClient();
  const syncs = useQuery({
    queryKey: syncKeys.syncs,
    queryFn: listSyncs,
    // A sync under way is followed every second (and at once on its live `store-syncs` change);
    // an ended one is not asked again.
    refetchInterval: (query) => (query.state.data?.some(running) ? 1000 : false),
  });
  useSubscription({
    channel: "resources/store-syncs",
    types: ["updated"],
    onLiveEvent: () => void queryClient.invalidateQueries({ queryKey: syncKeys.syncs, exact: true }),
  });
  const list = syncs.data ?? [];
  const sync = (watching ? list.find((s) => s.id === watching) : undefined) ?? list[0];
  // A sync that has just ended changed the store's products: their list reads again.
  const ended = sync && !running(sync) ? sync.id : null;
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: ["store", "products"] });
  }, [ended, queryClient]);
  const store = connections.find((c) => c.id === sync?.connectionId);
  return (
    <Card title="Sync" style={{ marginTop: 16 }}>
      {syncs.isError ? (
        <LoadError compact what="syncs" error={syncs.error} onRetry={() => syncs.refetch()} />
      ) : !sync ? (
        <Empty
          description={
            syncs.isLoading
              ? "Loading…"
              : "No sync yet: “Sync now” on a store brings its products and categories into the catalogue"
          }
        />
      ) : (
        <Space direction="vertical" style={{ width: "100%" }} size="middle">
          <Typography.Text>
            {store?.name ?? "A removed store"}: started <DateText value={sync.startedAt ?? sync.createdAt} />
            {sync.finishedAt && (
              <>
                , ended <DateText value={sync.finishedAt} />
              </>
            )}
          </Typography.Text>
          {running(sync) && <SyncProgress sync={sync} />}
          {sync.status === "failed" && (
            <Alert type="error" showIcon message={sync.error ?? "The sync failed"} />
          )}
          {!running(sync) && (
            <Space wrap aria-label="Sync counts">
              <Tag color="success">{sync.counts.created} created</Tag>
              <Tag color="processing">{sync.counts.updated} updated</Tag>
              <Tag color="warning">{sync.counts.conflicts} conflicts (the store's version kept)</Tag>
              <Tag>{sync.counts.skipped} skipped</Tag>
            </Space>
          )}
          {!running(sync) && <Report key={sync.id} id={sync.id} />}
        </Space>
      )}
    </Card>
  );
}
