/**
 * CRM › Calendar (spec §3 `calendarAuth`): the signed-in user's own calendar connection. Connect
 * a CalDAV account (iCloud, Fastmail, Nextcloud, Radicale…), see whether it works, pick the
 * calendar meetings go to, check it again, reconnect with a new app password, disconnect.
 * Reached from the CRM menu and from My account.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Descriptions, Popconfirm, Select, Skeleton, Space, Tag, Typography } from "antd";
import { useState } from "react";
import type { CalendarConnection } from "../../../../schemas/crm-calendar";
import { DateText } from "../../../components/date-text";
import { LoadError } from "../../../components/load-error";
import { getErrorMessage } from "../../../lib/errors";
import {
  calendarKeys,
  chooseCalendar,
  disconnectCalendar,
  getConnection,
  testConnection,
} from "./calendar-api";
import { ConnectionForm } from "./connection-form";
import "./calendar.css";

const STATUS_TAGS: Record<CalendarConnection["status"], { color: string; label: string }> = {
  connected: { color: "success", label: "Connected" },
  failing: { color: "error", label: "Needs attention" },
  none: { color: "default", label: "Not connected" },
};

export function ConnectionStatusTag({ status }: { status: CalendarConnection["status"] }) {
  const tag = STATUS_TAGS[status];
  return (
    <Tag color={tag.color} data-testid="calendar-status">
      {tag.label}
    </Tag>
  );
}

export default function CalendarPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: calendarKeys.connection, queryFn: getConnection });
  const [reconnecting, setReconnecting] = useState(false);
  const [busy, setBusy] = useState<"test" | "choose" | "disconnect" | null>(null);
  const connection = query.data;

  const show = (next: CalendarConnection) => queryClient.setQueryData(calendarKeys.connection, next);
  const act = async (what: NonNullable<typeof busy>, run: () => Promise<void>) => {
    setBusy(what);
    try {
      await run();
    } catch (err) {
      message.error(getErrorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  if (query.isError)
    return <LoadError what="your calendar connection" error={query.error} onRetry={() => query.refetch()} />;

  return (
    <Card
      title="Calendar"
      className="crm-calendar-page"
      extra={connection ? <ConnectionStatusTag status={connection.status} /> : null}
    >
      {!connection ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : connection.status === "none" || reconnecting ? (
        <>
          <Typography.Paragraph type="secondary">
            {connection.status === "none"
              ? "Connect your calendar to book meetings with clients: each meeting goes into it, and the client gets an invitation by mail."
              : "Enter the account again, with a new app password if the old one was revoked."}
          </Typography.Paragraph>
          <ConnectionForm
            initial={
              connection.serverUrl && connection.username
                ? { url: connection.serverUrl, username: connection.username }
                : undefined
            }
            onCancel={reconnecting ? () => setReconnecting(false) : undefined}
            onConnected={(next) => {
              show(next);
              setReconnecting(false);
              message.success(`Connected: meetings go to "${next.calendarName}"`);
            }}
          />
        </>
      ) : (
        <Space direction="vertical" size={16} style={{ width: "100%" }}>
          {connection.status === "failing" && connection.lastError && (
            <Typography.Paragraph type="danger" role="alert" className="crm-calendar-error">
              {connection.lastError}
            </Typography.Paragraph>
          )}
          <Descriptions column={1} bordered size="middle">
            <Descriptions.Item label="Server">{connection.serverUrl}</Descriptions.Item>
            <Descriptions.Item label="User name">{connection.username}</Descriptions.Item>
            <Descriptions.Item label="Meetings go to">
              <Select
                aria-label="Calendar for meetings"
                value={connection.calendarUrl ?? undefined}
                loading={busy === "choose"}
                disabled={busy !== null}
                style={{ minWidth: 260 }}
                options={connection.calendars.map((c) => ({ value: c.url, label: c.name }))}
                onChange={(url: string) =>
                  act("choose", async () => {
                    const next = await chooseCalendar(url);
                    show(next);
                    message.success(`Meetings go to "${next.calendarName}"`);
                  })
                }
              />
            </Descriptions.Item>
            <Descriptions.Item label="Last checked">
              <DateText value={connection.lastCheckedAt} />
            </Descriptions.Item>
          </Descriptions>
          <Space wrap>
            <Button
              loading={busy === "test"}
              disabled={busy !== null}
              onClick={() =>
                act("test", async () => {
                  const next = await testConnection();
                  show(next);
                  if (next.status === "connected") message.success("Your calendar answers");
                })
              }
            >
              Check now
            </Button>
            <Button disabled={busy !== null} onClick={() => setReconnecting(true)}>
              Reconnect
            </Button>
            <Popconfirm
              title="Disconnect your calendar?"
              description="Its app password is forgotten. Meetings already booked stay in your calendar."
              okText="Disconnect"
              okButtonProps={{ danger: true }}
              onConfirm={() =>
                act("disconnect", async () => {
                  await disconnectCalendar();
                  await queryClient.invalidateQueries({ queryKey: calendarKeys.connection });
                  message.success("Calendar disconnected");
                })
              }
            >
              <Button danger loading={busy === "disconnect"} disabled={busy !== null}>
                Disconnect
              </Button>
            </Popconfirm>
          </Space>
        </Space>
      )}
    </Card>
  );
}
