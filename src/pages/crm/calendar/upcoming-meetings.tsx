/**
 * A client page's "Upcoming meetings": the signed-in user's meetings with this client still to
 * come, soonest first, each in its own time zone, with Cancel (the client is sent a cancellation).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Popconfirm, Typography } from "antd";
import { useState } from "react";
import { LoadError } from "../../../components/load-error";
import { getErrorMessage } from "../../../lib/errors";
import { browserTimeZone, meetingWhen } from "../../../lib/meeting-time";
import { crmKeys } from "../crm-api";
import { calendarKeys, cancelMeeting, getUpcomingMeetings } from "./calendar-api";
import "./calendar.css";

export function UpcomingMeetings({ clientId }: { clientId: string }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: calendarKeys.upcoming(clientId),
    queryFn: () => getUpcomingMeetings(clientId),
  });
  const [cancelling, setCancelling] = useState<string | null>(null);
  const reader = browserTimeZone();
  const rows = query.data?.data ?? [];

  const cancel = async (id: string) => {
    setCancelling(id);
    try {
      await cancelMeeting(id);
      message.success("Meeting cancelled: the client has been told");
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: calendarKeys.upcoming(clientId) }),
        queryClient.invalidateQueries({ queryKey: crmKeys.timelineOf(clientId) }),
      ]);
    } catch (err) {
      message.error(getErrorMessage(err));
    } finally {
      setCancelling(null);
    }
  };

  return (
    <Card title="Upcoming meetings" size="small" loading={query.isPending}>
      {query.isError ? (
        <LoadError what="the meetings" error={query.error} onRetry={() => query.refetch()} />
      ) : rows.length === 0 ? (
        <Typography.Text type="secondary">No meetings coming up</Typography.Text>
      ) : (
        <ul className="crm-side-list" aria-label="Upcoming meetings">
          {rows.map((m) => (
            <li key={m.id}>
              <span>
                {m.title}
                <Typography.Text type="secondary" className="crm-meeting-when">
                  {meetingWhen(m.startsAt, m.endsAt, m.timeZone, reader)}
                  {m.location ? ` · ${m.location}` : ""}
                </Typography.Text>
              </span>
              <Popconfirm
                title="Cancel this meeting?"
                description="It leaves your calendar, and the client is sent a cancellation."
                okText="Cancel meeting"
                cancelText="Keep it"
                okButtonProps={{ danger: true }}
                onConfirm={() => cancel(m.id)}
              >
                <Button
                  size="small"
                  type="link"
                  danger
                  loading={cancelling === m.id}
                  aria-label={`Cancel ${m.title}`}
                >
                  Cancel
                </Button>
              </Popconfirm>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
