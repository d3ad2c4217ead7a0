/**
 * Online store (issue 18, module 3): the connected BigCommerce stores — connect one (checked with
 * the store first), see whether each works and when it was last checked and synced, check it
 * again, make one the default, rename it or give it a new token, remove it; sync one into the
 * catalogue (its progress, then its report) and see the store's products; the carts list
 * (abandoned store carts, catalogue checkouts, proposals' carts). Proposals have their own
 * screens (a resource of the module). docs/store-api.md.
 */
import { PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Empty, Popconfirm, Space, Table, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { useSearchParams } from "react-router";
import type { StoreConnection } from "../../../schemas/store";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { PageHeader } from "../../layout/page-header";
import { getErrorMessage } from "../../lib/errors";
import { ConnectionDialog } from "./connection-dialog";
import { listConnections, removeConnection, storeKeys, testConnection, updateConnection } from "./store-api";
import { StoreCarts } from "./store-carts";
// Store sync (issue 18): "Sync now", its progress and report, the store product list.
import { StoreProductsCard } from "./store-products-card";
import { SyncCard, useStoreSync } from "./sync-card";

function StatusTag({ connection }: { connection: StoreConnection }) {
  if (connection.status === "connected") return <Tag color="success">Connected</Tag>;
  return (
    <Tooltip title={connection.lastError ?? undefined}>
      <Tag color="error" tabIndex={0}>
        Needs attention
      </Tag>
    </Tooltip>
  );
}

export default function StorePage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const connections = useQuery({ queryKey: storeKeys.connections, queryFn: listConnections });
  const [dialog, setDialog] = useState<{ editing: StoreConnection | null } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: storeKeys.connections });
  const rows = connections.data ?? [];
  const sync = useStoreSync();
  // A sync's notification links here with `?sync=<id>`: its report is shown.
  const [params] = useSearchParams();

  const act = async (key: string, run: () => Promise<void>) => {
    setBusy(key);
    try {
      await run();
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setBusy(null);
      await refresh();
    }
  };

  const check = (c: StoreConnection) =>
    act(`test:${c.id}`, async () => {
      const result = await testConnection(c.id);
      if (result.ok) message.success(`${c.name} answers: ${result.storeName} (${result.currency})`);
      else message.error(`${c.name}: ${result.message}`);
    });

  const connect = (
    <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setDialog({ editing: null })}>
      Connect a store
    </Button>
  );

  return (
    <>
      <PageHeader title="Online store" extra={rows.length > 0 ? connect : null} />
      <Card title="Connected stores">
        <Typography.Paragraph type="secondary">
          BigCommerce stores whose products and carts this back-office reads. Each is checked with the store
          before it is saved; its API token is kept encrypted and never shown again.
        </Typography.Paragraph>
        {connections.isError ? (
          <LoadError
            what="the connected stores"
            error={connections.error}
            onRetry={() => connections.refetch()}
          />
        ) : (
          <Table<StoreConnection>
            rowKey="id"
            loading={connections.isLoading}
            dataSource={rows}
            pagination={false}
            scroll={{ x: 920 }}
            locale={{
              emptyText: <Empty description="No store is connected yet">{connect}</Empty>,
            }}
            columns={[
              {
                title: "Name",
                dataIndex: "name",
                render: (name: string, c) => (
                  <Space size={6}>
                    <Typography.Text strong>{name}</Typography.Text>
                    {c.isDefault && <Tag color="blue">Default</Tag>}
                  </Space>
                ),
              },
              {
                title: "Store",
                key: "store",
                width: 180,
                render: (_, c) => (
                  <Space direction="vertical" size={0}>
                    <span>{c.storeName ?? "—"}</span>
                    <Typography.Text type="secondary" code style={{ whiteSpace: "nowrap" }}>
                      {c.storeHash}
                    </Typography.Text>
                  </Space>
                ),
              },
              {
                title: "Currency",
                dataIndex: "currency",
                width: 96,
                render: (v: string | null) => v ?? "—",
              },
              {
                title: "Status",
                key: "status",
                width: 200,
                render: (_, c) => (
                  <Space direction="vertical" size={2}>
                    <StatusTag connection={c} />
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      Checked <DateText value={c.lastCheckedAt} fallback="never" />
                    </Typography.Text>
                  </Space>
                ),
              },
              {
                title: "Actions",
                key: "actions",
                width: 340,
                fixed: "right",
                render: (_, c) => (
                  <Space wrap size={4}>
                    <Button
                      size="small"
                      type="primary"
                      loading={sync.starting === c.id}
                      onClick={() => sync.start(c)}
                      aria-label={`Sync now: ${c.name}`}
                    >
                      Sync now
                    </Button>
                    <Button
                      size="small"
                      loading={busy === `test:${c.id}`}
                      onClick={() => check(c)}
                      aria-label={`Check the connection of ${c.name}`}
                    >
                      Check
                    </Button>
                    {!c.isDefault && (
                      <Button
                        size="small"
                        loading={busy === `default:${c.id}`}
                        onClick={() =>
                          act(`default:${c.id}`, async () => {
                            await updateConnection(c.id, { isDefault: true });
                            message.success(`${c.name} is the default store`);
                          })
                        }
                      >
                        Make default
                      </Button>
                    )}
                    <Button size="small" onClick={() => setDialog({ editing: c })}>
                      Change
                    </Button>
                    <Popconfirm
                      title={`Remove ${c.name}?`}
                      description="Its API token is forgotten. The store itself is not changed."
                      okText="Yes, remove"
                      okButtonProps={{ danger: true }}
                      onConfirm={() =>
                        act(`remove:${c.id}`, async () => {
                          await removeConnection(c.id);
                          message.success(`${c.name} removed`);
                        })
                      }
                    >
                      <Button size="small" danger loading={busy === `remove:${c.id}`}>
                        Remove
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>
      {rows.length > 0 && <SyncCard watching={sync.watching ?? params.get("sync")} connections={rows} />}
      {rows.length > 0 && <StoreProductsCard />}
      <StoreCarts />
      <ConnectionDialog
        open={dialog !== null}
        editing={dialog?.editing ?? null}
        first={rows.length === 0}
        onCancel={() => setDialog(null)}
        onDone={(saved) => {
          setDialog(null);
          message.success(
            dialog?.editing
              ? `${saved.name} saved`
              : `${saved.name} connected: ${saved.storeName ?? saved.storeHash}`,
          );
          void refresh();
        }}
      />
    </>
  );
}
