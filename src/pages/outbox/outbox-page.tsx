import { getDefaultSortOrder, List, useTable } from "@refinedev/antd";
import { Button, Descriptions, Drawer, Empty, Table, Tag, Typography } from "antd";
import { useState } from "react";
import type { OutboxMail } from "../../../schemas/auth";
import { statusLabel } from "../../../schemas/status-labels";
import { DateText } from "../../components/date-text";
import { LinkifiedText } from "../../components/linkified-text";
import { LoadError } from "../../components/load-error";
import { DEFAULT_PAGE_SIZE } from "../../lib/constants";
import { loadFailed } from "../../lib/load-failure";

const STATUS_COLOURS: Record<OutboxMail["status"], string> = {
  stored: "blue",
  pending: "gold",
  sent: "green",
  failed: "red",
};

/** `/outbox`: mails the server has stored or sent. Without SMTP, reset links are read here. */
export default function OutboxPage() {
  const [open, setOpen] = useState<OutboxMail | null>(null);
  const { tableProps, tableQuery, sorters } = useTable<OutboxMail>({
    resource: "outbox",
    pagination: { pageSize: DEFAULT_PAGE_SIZE },
    sorters: { initial: [{ field: "created_at", order: "desc" }] },
    syncWithLocation: true,
    // A failure is shown in place of the table, not as a toast over an empty one.
    errorNotification: false,
  });

  return (
    <List title="Mail outbox" headerButtons={() => null}>
      <Typography.Paragraph type="secondary">
        Mails sent by the platform. When no SMTP server is configured they are kept here instead of being
        delivered, so password-reset links can still be handed over.
      </Typography.Paragraph>
      {loadFailed(tableQuery) ? (
        <LoadError what="mail outbox" error={tableQuery.error} onRetry={() => tableQuery.refetch()} />
      ) : (
        <Table<OutboxMail>
          {...tableProps}
          rowKey="id"
          scroll={{ x: 720 }}
          locale={{ emptyText: <Empty description="No mails yet" /> }}
        >
          <Table.Column<OutboxMail> dataIndex="to" title="To" />
          <Table.Column<OutboxMail> dataIndex="subject" title="Subject" />
          <Table.Column<OutboxMail>
            dataIndex="status"
            title="Status"
            render={(status: OutboxMail["status"]) => (
              <Tag color={STATUS_COLOURS[status]}>{statusLabel(status)}</Tag>
            )}
          />
          <Table.Column<OutboxMail>
            dataIndex="created_at"
            title="Created"
            sorter
            defaultSortOrder={getDefaultSortOrder("created_at", sorters)}
            render={(value: string) => <DateText value={value} />}
          />
          <Table.Column<OutboxMail>
            key="actions"
            title="Actions"
            render={(_, mail) => (
              <Button type="link" size="small" onClick={() => setOpen(mail)}>
                Open
              </Button>
            )}
          />
        </Table>
      )}
      <Drawer title={open?.subject} open={open !== null} onClose={() => setOpen(null)} width={640}>
        {open && (
          <>
            <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
              <Descriptions.Item label="To">{open.to}</Descriptions.Item>
              {open.cc?.length > 0 && <Descriptions.Item label="Cc">{open.cc.join(", ")}</Descriptions.Item>}
              {open.bcc?.length > 0 && (
                <Descriptions.Item label="Bcc">{open.bcc.join(", ")}</Descriptions.Item>
              )}
              {open.replyTo && <Descriptions.Item label="Reply-To">{open.replyTo}</Descriptions.Item>}
              {open.attachments?.length > 0 && (
                <Descriptions.Item label="Attachments">{open.attachments.join(", ")}</Descriptions.Item>
              )}
              <Descriptions.Item label="Status">
                <Tag color={STATUS_COLOURS[open.status]}>{statusLabel(open.status)}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label="Created">
                <DateText value={open.created_at} />
              </Descriptions.Item>
              {open.sent_at && (
                <Descriptions.Item label="Sent">
                  <DateText value={open.sent_at} />
                </Descriptions.Item>
              )}
              {open.error && <Descriptions.Item label="Error">{open.error}</Descriptions.Item>}
            </Descriptions>
            <Typography.Paragraph
              aria-label="Mail body"
              style={{ whiteSpace: "pre-wrap", background: "#fafafd", padding: 16, borderRadius: 8 }}
            >
              <LinkifiedText text={open.text} />
            </Typography.Paragraph>
          </>
        )}
      </Drawer>
    </List>
  );
}
