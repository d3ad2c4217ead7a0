/**
 * `/crm/sms-outbox`: every SMS sent to clients, newest first, with where it stands (kept,
 * queued, sent, delivered, failed and why). Without an SMS provider this is where SMS wait, so a
 * fresh install shows what would have been sent, as the mail outbox does for mail.
 */
import { getDefaultFilter, getDefaultSortOrder, List, useTable } from "@refinedev/antd";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Descriptions, Drawer, Empty, Select, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { SMS_STATUS_LABELS, SMS_STATUSES, type SmsMessage, type SmsStatus } from "../../../schemas/sms";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { DEFAULT_PAGE_SIZE } from "../../lib/constants";
import { loadFailed } from "../../lib/load-failure";
import { getSmsSettings, SMS_OUTBOX_RESOURCE, smsKeys } from "./sms-api";

export const SMS_STATUS_COLOURS: Record<SmsStatus, string> = {
  stored: "blue",
  queued: "gold",
  sent: "cyan",
  delivered: "green",
  undelivered: "volcano",
  failed: "red",
  received: "purple",
};

const StatusTag = ({ status }: { status: SmsStatus }) => (
  <Tag color={SMS_STATUS_COLOURS[status]}>{SMS_STATUS_LABELS[status]}</Tag>
);

const OUTGOING: readonly SmsStatus[] = SMS_STATUSES.filter((s) => s !== "received");

export default function SmsOutboxPage() {
  const [open, setOpen] = useState<SmsMessage | null>(null);
  const settings = useQuery({ queryKey: smsKeys.settings, queryFn: getSmsSettings, staleTime: 60_000 });
  const { tableProps, tableQuery, sorters, filters, setFilters, setCurrentPage } = useTable<SmsMessage>({
    resource: SMS_OUTBOX_RESOURCE,
    dataProviderName: "crm",
    pagination: { pageSize: DEFAULT_PAGE_SIZE },
    sorters: { initial: [{ field: "created_at", order: "desc" }] },
    syncWithLocation: true,
    // A failure is shown in place of the table, not as a toast over an empty one.
    errorNotification: false,
  });
  const status = getDefaultFilter("status", filters, "eq") as SmsStatus | undefined;

  return (
    <List title="SMS outbox" headerButtons={() => null}>
      <Typography.Paragraph type="secondary">
        SMS sent to clients from the CRM, and what became of them.
      </Typography.Paragraph>
      {settings.data && !settings.data.sends && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="No SMS provider is configured: SMS are kept here instead of being sent."
          description="Set SMS_PROVIDER=twilio with the provider's account settings to send them (see the README)."
        />
      )}
      <div style={{ marginBottom: 16 }}>
        <Select
          allowClear
          aria-label="Status"
          placeholder="Any status"
          style={{ width: 220 }}
          value={status}
          onChange={(value: SmsStatus | undefined) => {
            setFilters([{ field: "status", operator: "eq", value }], "replace");
            setCurrentPage(1);
          }}
          options={OUTGOING.map((s) => ({ value: s, label: SMS_STATUS_LABELS[s] }))}
        />
      </div>
      {loadFailed(tableQuery) ? (
        <LoadError what="SMS outbox" error={tableQuery.error} onRetry={() => tableQuery.refetch()} />
      ) : (
        <Table<SmsMessage>
          {...tableProps}
          rowKey="id"
          scroll={{ x: 900 }}
          locale={{ emptyText: <Empty description="No SMS yet" /> }}
        >
          <Table.Column<SmsMessage> dataIndex="to" title="To" width={170} />
          <Table.Column<SmsMessage>
            dataIndex="clientName"
            title="Client"
            render={(name: string | null, sms) =>
              name ? <Link to={`/crm/clients/show/${sms.clientId}`}>{name}</Link> : "—"
            }
          />
          <Table.Column<SmsMessage>
            dataIndex="body"
            title="Message"
            ellipsis
            render={(body: string) => <span title={body}>{body}</span>}
          />
          <Table.Column<SmsMessage>
            dataIndex="status"
            title="Status"
            width={150}
            render={(s: SmsStatus) => <StatusTag status={s} />}
          />
          <Table.Column<SmsMessage> dataIndex="segments" title="Parts" width={84} />
          <Table.Column<SmsMessage>
            dataIndex="created_at"
            title="Created"
            width={180}
            sorter
            defaultSortOrder={getDefaultSortOrder("created_at", sorters)}
            render={(value: string) => <DateText value={value} />}
          />
          <Table.Column<SmsMessage>
            key="actions"
            title="Actions"
            width={104}
            render={(_, sms) => (
              <Button type="link" size="small" onClick={() => setOpen(sms)}>
                Open
              </Button>
            )}
          />
        </Table>
      )}
      <Drawer
        title={open ? `SMS to ${open.to}` : ""}
        open={open !== null}
        onClose={() => setOpen(null)}
        width={560}
      >
        {open && (
          <>
            <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
              <Descriptions.Item label="To">{open.to}</Descriptions.Item>
              {open.clientName && (
                <Descriptions.Item label="Client">
                  <Link to={`/crm/clients/show/${open.clientId}`}>{open.clientName}</Link>
                </Descriptions.Item>
              )}
              {open.from && <Descriptions.Item label="From">{open.from}</Descriptions.Item>}
              <Descriptions.Item label="Status">
                <StatusTag status={open.status} />
              </Descriptions.Item>
              {open.error && (
                <Descriptions.Item label="Why">
                  {open.error}
                  {open.errorCode ? ` (code ${open.errorCode})` : ""}
                </Descriptions.Item>
              )}
              <Descriptions.Item label="Size">
                {open.segments} {open.segments === 1 ? "part" : "parts"},{" "}
                {open.encoding === "GSM-7" ? "GSM-7" : "Unicode"}
              </Descriptions.Item>
              {open.provider && <Descriptions.Item label="Provider">{open.provider}</Descriptions.Item>}
              {open.providerId && (
                <Descriptions.Item label="Provider's id">{open.providerId}</Descriptions.Item>
              )}
              {open.attempts > 0 && <Descriptions.Item label="Attempts">{open.attempts}</Descriptions.Item>}
              <Descriptions.Item label="Created">
                <DateText value={open.created_at} />
              </Descriptions.Item>
              {open.sent_at && (
                <Descriptions.Item label="Sent">
                  <DateText value={open.sent_at} />
                </Descriptions.Item>
              )}
              {open.delivered_at && (
                <Descriptions.Item label="Delivered">
                  <DateText value={open.delivered_at} />
                </Descriptions.Item>
              )}
            </Descriptions>
            <Typography.Paragraph
              aria-label="SMS text"
              style={{ whiteSpace: "pre-wrap", background: "#fafafd", padding: 16, borderRadius: 8 }}
            >
              {open.body}
            </Typography.Paragraph>
          </>
        )}
      </Drawer>
    </List>
  );
}
