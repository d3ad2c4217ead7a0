/**
 * What one person changed over a period (issue 31), on their user page, for administrators:
 * every record change they made (by hand, by CSV import, by restore), newest first, each with
 * its record (linked), what happened and the fields' earlier and new values
 * (`GET /api/history?user=&from=&to=`).
 */
import { ReloadOutlined } from "@ant-design/icons";
import { useApiUrl, useCustom } from "@refinedev/core";
import { Alert, Button, Card, Empty, Flex, Select, Table, Tag, Typography } from "antd";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { resourceByName } from "../../../resources/index";
import type { HistoryChange, HistoryEntry, HistoryPage } from "../../../schemas/history";
import { fieldTitle } from "../../resources/fields";
import { recordPath } from "../../resources/routes";
import { ChangeValue, WhenText } from "../../resources/show/record-history";

const PERIODS = [
  { value: 1, label: "Last 24 hours" },
  { value: 7, label: "Last 7 days" },
  { value: 30, label: "Last 30 days" },
  { value: 90, label: "Last 90 days" },
  { value: 365, label: "Last 12 months" },
] as const;

const ACTION_TAGS = { created: "green", updated: "blue", deleted: "red" } as const;
const ACTION_WORDS = { created: "Created", updated: "Updated", deleted: "Deleted" } as const;
const PAGE_SIZE = 20;

function ChangeLines({ entry }: { entry: HistoryEntry }) {
  const def = resourceByName(entry.resource);
  if (!def) return <Typography.Text type="secondary">{entry.changes.length} fields</Typography.Text>;
  const shown = entry.changes.slice(0, 6);
  // A price is shown in the currency the same change set, if it did.
  const currency = entry.changes.find((c) => c.field === "currency");
  const context = currency ? { currency: currency.to ?? currency.from } : undefined;
  return (
    <Flex vertical gap={2}>
      {shown.map((c: HistoryChange) => (
        <Flex key={c.field} gap={6} wrap align="baseline">
          <Typography.Text strong>{fieldTitle(def.schema, c.field)}:</Typography.Text>
          {entry.action !== "created" && (
            <ChangeValue schema={def.schema} field={c.field} value={c.from} context={context} />
          )}
          {entry.action === "updated" && <Typography.Text type="secondary">→</Typography.Text>}
          {entry.action !== "deleted" && (
            <ChangeValue schema={def.schema} field={c.field} value={c.to} context={context} />
          )}
        </Flex>
      ))}
      {entry.changes.length > shown.length && (
        <Typography.Text type="secondary">
          and {entry.changes.length - shown.length} more fields
        </Typography.Text>
      )}
    </Flex>
  );
}

export function UserChanges({ userId, name }: { userId: string; name: string }) {
  const apiUrl = useApiUrl();
  const [days, setDays] = useState<number>(30);
  const [page, setPage] = useState(1);
  // The period's start, fixed when it is chosen (not on every render).
  const from = useMemo(() => new Date(Date.now() - days * 24 * 3600 * 1000).toISOString(), [days]);
  const { query } = useCustom<HistoryPage>({
    url: `${apiUrl}/history`,
    method: "get",
    config: { query: { user: userId, from, page, pageSize: PAGE_SIZE } },
    errorNotification: false,
  });
  const data = query.data?.data;

  return (
    <Card
      title="Changes"
      extra={
        <Select
          aria-label="Period"
          value={days}
          options={PERIODS.map((p) => ({ value: p.value, label: p.label }))}
          onChange={(value) => {
            setDays(value);
            setPage(1);
          }}
          style={{ width: 160 }}
        />
      }
    >
      {query.isError ? (
        <Alert
          type="error"
          showIcon
          message="The changes could not be loaded"
          description={query.error?.message}
          action={
            <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
              Try again
            </Button>
          }
        />
      ) : (
        <Table<HistoryEntry>
          size="middle"
          rowKey="id"
          loading={query.isLoading}
          dataSource={data?.data ?? []}
          locale={{
            emptyText: (
              <Empty
                description={`${name} changed no records in this period`}
                image={Empty.PRESENTED_IMAGE_SIMPLE}
              />
            ),
          }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPage,
            hideOnSinglePage: true,
          }}
          columns={[
            { title: "When", key: "at", width: 150, render: (_, e) => <WhenText at={e.at} /> },
            {
              title: "Record",
              key: "record",
              width: 220,
              render: (_, e) => {
                const def = resourceByName(e.resource);
                const name = e.recordLabel || e.recordId.slice(0, 8);
                return (
                  <Flex vertical gap={0}>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {def?.singular ?? e.resource}
                    </Typography.Text>
                    {def && e.action !== "deleted" ? (
                      <Link to={`${recordPath(def, "show", e.recordId)}?tab=history`}>{name}</Link>
                    ) : (
                      <Typography.Text>{name}</Typography.Text>
                    )}
                  </Flex>
                );
              },
            },
            {
              title: "Change",
              key: "action",
              width: 130,
              render: (_, e) => (
                <Flex vertical gap={2} align="start">
                  <Tag color={ACTION_TAGS[e.action]}>{ACTION_WORDS[e.action]}</Tag>
                  {e.actor.kind !== "user" && (
                    <Typography.Text type="secondary">
                      {e.actor.kind === "import" ? "CSV import" : "Restored"}
                    </Typography.Text>
                  )}
                </Flex>
              ),
            },
            { title: "Fields", key: "changes", render: (_, e) => <ChangeLines entry={e} /> },
          ]}
        />
      )}
    </Card>
  );
}
