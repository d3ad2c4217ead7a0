/**
 * A record's History tab (issue 31): every change, newest first, as a readable diff — the
 * fields by their labels, the values as the list shows them (money, dates, relations by name:
 * field-value.tsx), who made it and when (relative, the exact time on hover) — with a Restore
 * of a field's earlier value and of the whole record as it was before a change, each after a
 * confirmation (`GET`/`POST /{base}/{name}/{id}/history…`, docs/resource-api.md).
 */
import { HistoryOutlined, ReloadOutlined, RollbackOutlined } from "@ant-design/icons";
import { useApiUrl, useCustom, useCustomMutation, useInvalidate } from "@refinedev/core";
import {
  Alert,
  Button,
  Empty,
  Flex,
  Pagination,
  Popconfirm,
  Skeleton,
  Table,
  Tag,
  Tooltip,
  Typography,
} from "antd";
import { useMemo, useState } from "react";
import { canEdit, type ResourceDefinition } from "../../../resources/contract";
import type { EntitySchema } from "../../../schemas/contract";
import type { HistoryAction, HistoryChange, HistoryEntry, HistoryPage } from "../../../schemas/history";
import { formatDmyTime } from "../../lib/dates";
import { timeAgo } from "../../pages/notifications/time-ago";
import { EMPTY_VALUE, FieldValue } from "../field-value";
import { fieldTitle, relationOf } from "../fields";

const PAGE_SIZE = 20;

const VERSION_KINDS = { save: "saved", publish: "published", restore: "restored" } as const;

const ACTIONS: Record<HistoryAction, { label: string; color: string }> = {
  created: { label: "Created", color: "green" },
  updated: { label: "Updated", color: "blue" },
  deleted: { label: "Deleted", color: "red" },
};

/** The exact time, to the second, as every screen writes dates. */
export function exactTime(iso: string): string {
  const at = new Date(iso);
  return `${formatDmyTime(at)}:${String(at.getSeconds()).padStart(2, "0")}`;
}

/** When, relative, with the exact time on hover (and for keyboards, on focus). */
export function WhenText({ at }: { at: string }) {
  return (
    <Tooltip title={exactTime(at)}>
      <time dateTime={at}>{timeAgo(at)}</time>
    </Tooltip>
  );
}

/** One stored value, formatted as the list formats its field. */
export function ChangeValue({
  schema,
  field,
  value,
  relationIds,
  context,
}: {
  schema: EntitySchema;
  field: string;
  value: unknown;
  relationIds?: readonly string[];
  /** The record's other values a value is shown with (a price's currency). */
  context?: Record<string, unknown>;
}) {
  if (value === null || value === undefined || value === "") return EMPTY_VALUE;
  // A field removed since: its value as it was kept.
  if (!schema.properties[field])
    return <Typography.Text>{typeof value === "string" ? value : JSON.stringify(value)}</Typography.Text>;
  return (
    <FieldValue
      schema={schema}
      field={field}
      record={{ ...context, [field]: value }}
      variant="detail"
      relationIds={relationIds}
    />
  );
}

/** Every id each relation field takes on the page, so each relation asks once per page. */
export function relationIdsOf(schema: EntitySchema, entries: readonly HistoryEntry[]): Map<string, string[]> {
  const ids = new Map<string, Set<string>>();
  for (const entry of entries)
    for (const change of entry.changes) {
      if (!relationOf(schema.properties[change.field])) continue;
      const set = ids.get(change.field) ?? new Set<string>();
      for (const v of [change.from, change.to]) {
        if (typeof v === "string") set.add(v);
        else if (Array.isArray(v)) for (const item of v) set.add(String(item));
      }
      ids.set(change.field, set);
    }
  return new Map([...ids].map(([field, set]) => [field, [...set]]));
}

interface RecordHistoryProps {
  def: ResourceDefinition;
  /** The schema now (with an `x-custom` resource's custom fields). */
  schema: EntitySchema;
  id: string;
  /** The record now: the context its earlier values are shown in (a price's currency). */
  record?: Record<string, unknown>;
}

export default function RecordHistory({ def, schema, id, record }: RecordHistoryProps) {
  const apiUrl = useApiUrl(def.base);
  const [page, setPage] = useState(1);
  const { query } = useCustom<HistoryPage>({
    url: `${apiUrl}/${def.name}/${id}/history`,
    method: "get",
    dataProviderName: def.base,
    config: { query: { page, pageSize: PAGE_SIZE } },
    errorNotification: false,
  });
  const invalidate = useInvalidate();
  const { mutate, mutation } = useCustomMutation();
  const [pending, setPending] = useState<string | null>(null);
  const data = query.data?.data;
  const entries = data?.data ?? [];
  const relationIds = useMemo(() => relationIdsOf(schema, entries), [schema, entries]);
  // CMS entries restore their versions on their own screen, not from here.
  const editable = canEdit(def) && data?.restorable !== false;
  const singular = def.singular.toLowerCase();

  const restore = (entry: HistoryEntry, field?: string) => {
    const key = `${entry.id}:${field ?? ""}`;
    setPending(key);
    mutate(
      {
        url: `${apiUrl}/${def.name}/${id}/history/${entry.id}/restore`,
        method: "post",
        values: field ? { field } : {},
        dataProviderName: def.base,
        successNotification: {
          type: "success",
          message: field ? `${fieldTitle(schema, field)} restored` : `${def.singular} restored`,
        },
        errorNotification: (error) => ({
          type: "error",
          message: "Could not restore",
          description: error?.message ?? "Please try again",
        }),
      },
      {
        onSettled: () => setPending(null),
        onSuccess: () => {
          setPage(1);
          void query.refetch();
          void invalidate({
            resource: def.name,
            dataProviderName: def.base,
            id,
            invalidates: ["detail", "list"],
          });
        },
      },
    );
  };

  if (query.isLoading) return <Skeleton active paragraph={{ rows: 6 }} aria-label="Loading the history" />;
  if (query.isError)
    return (
      <Alert
        type="error"
        showIcon
        message="The history could not be loaded"
        description={query.error?.message}
        action={
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            Try again
          </Button>
        }
      />
    );
  if (!entries.length)
    return (
      <Empty
        image={<HistoryOutlined style={{ fontSize: 40, color: "#bfbfbf" }} />}
        description={`No changes to this ${singular} have been recorded yet`}
      />
    );

  return (
    <Flex vertical gap={16} data-testid="record-history">
      <Typography.Text type="secondary">
        {data?.total === 1 ? "1 change" : `${data?.total ?? 0} changes`}, newest first.
        {editable ? " Restore sets a field back to its value before the change." : ""}
      </Typography.Text>
      {entries.map((entry) => (
        <section
          key={entry.id}
          aria-label={`${ACTIONS[entry.action].label} by ${entry.actor.name}`}
          className="history-entry"
        >
          <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
            <Flex align="center" gap={8} wrap>
              <Tag color={ACTIONS[entry.action].color} style={{ marginInlineEnd: 0 }}>
                {ACTIONS[entry.action].label}
              </Tag>
              {entry.version && (
                <Tag style={{ marginInlineEnd: 0 }}>
                  Version {entry.version.number} · {VERSION_KINDS[entry.version.kind]}
                </Tag>
              )}
              <Typography.Text strong>{entry.actor.name}</Typography.Text>
              <Typography.Text type="secondary">
                <WhenText at={entry.at} />
              </Typography.Text>
            </Flex>
            {editable && entry.action === "updated" && (
              <Popconfirm
                title={`Restore this ${singular} as it was before this change?`}
                description="Every field changed here or since goes back to its earlier value."
                okText="Restore"
                cancelText="Cancel"
                onConfirm={() => restore(entry)}
              >
                <Button
                  size="small"
                  icon={<RollbackOutlined />}
                  loading={mutation.isPending && pending === `${entry.id}:`}
                >
                  Restore all
                </Button>
              </Popconfirm>
            )}
          </Flex>
          <Table<HistoryChange>
            size="small"
            bordered
            pagination={false}
            rowKey="field"
            dataSource={entry.changes}
            columns={[
              {
                title: "Field",
                dataIndex: "field",
                width: "22%",
                render: (field: string) => (
                  <Typography.Text strong>{fieldTitle(schema, field)}</Typography.Text>
                ),
              },
              ...(entry.action === "created"
                ? []
                : [
                    {
                      title: "Before",
                      key: "from",
                      width: entry.action === "updated" ? "34%" : undefined,
                      render: (_: unknown, c: HistoryChange) => (
                        <ChangeValue
                          schema={schema}
                          field={c.field}
                          value={c.from}
                          relationIds={relationIds.get(c.field)}
                          context={record}
                        />
                      ),
                    },
                  ]),
              ...(entry.action === "deleted"
                ? []
                : [
                    {
                      title: entry.action === "created" ? "Value" : "After",
                      key: "to",
                      render: (_: unknown, c: HistoryChange) => (
                        <ChangeValue
                          schema={schema}
                          field={c.field}
                          value={c.to}
                          relationIds={relationIds.get(c.field)}
                          context={record}
                        />
                      ),
                    },
                  ]),
              ...(editable && entry.action === "updated"
                ? [
                    {
                      title: <span className="atelier-sr-only">Restore</span>,
                      key: "restore",
                      width: 120,
                      align: "right" as const,
                      render: (_: unknown, c: HistoryChange) =>
                        schema.properties[c.field] && !schema.properties[c.field].readOnly ? (
                          <Popconfirm
                            title={`Restore ${fieldTitle(schema, c.field)}?`}
                            description="It goes back to its value before this change."
                            okText="Restore"
                            cancelText="Cancel"
                            onConfirm={() => restore(entry, c.field)}
                          >
                            <Button
                              size="small"
                              type="link"
                              icon={<RollbackOutlined />}
                              aria-label={`Restore ${fieldTitle(schema, c.field)}`}
                              loading={mutation.isPending && pending === `${entry.id}:${c.field}`}
                            >
                              Restore
                            </Button>
                          </Popconfirm>
                        ) : null,
                    },
                  ]
                : []),
            ]}
          />
        </section>
      ))}
      {(data?.total ?? 0) > PAGE_SIZE && (
        <Pagination
          align="end"
          current={page}
          pageSize={PAGE_SIZE}
          total={data?.total}
          showSizeChanger={false}
          onChange={setPage}
        />
      )}
    </Flex>
  );
}
