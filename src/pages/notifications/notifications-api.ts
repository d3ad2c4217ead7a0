/**
 * The signed-in user's notifications (`/api/notifications`, docs/notifications.md), through
 * the session client. Used by the bell's panel and the account page.
 */
import { http } from "../../../providers/http";
import type {
  NotificationKind,
  NotificationList,
  NotificationPreferences,
  NotificationRecord,
} from "../../../schemas/notifications";

/** The newest `pageSize` notifications (unread count included). */
export async function listNotifications(pageSize: number): Promise<NotificationList> {
  const { data } = await http.get<NotificationList>("/api/notifications", { params: { pageSize } });
  return data;
}

export async function markNotificationRead(id: string): Promise<NotificationRecord> {
  const { data } = await http.post<NotificationRecord>(`/api/notifications/${encodeURIComponent(id)}/read`);
  return data;
}

export async function markAllNotificationsRead(): Promise<number> {
  const { data } = await http.post<{ read: number }>("/api/notifications/read-all");
  return data.read;
}

export async function deleteNotification(id: string): Promise<void> {
  await http.delete(`/api/notifications/${encodeURIComponent(id)}`);
}

export async function getMailPreferences(): Promise<NotificationPreferences> {
  const { data } = await http.get<NotificationPreferences>("/api/notifications/preferences");
  return data;
}

/** Mail on or off for one kind; answers every kind's setting as saved. */
export async function setMailPreference(
  kind: NotificationKind,
  mail: boolean,
): Promise<NotificationPreferences> {
  const { data } = await http.put<NotificationPreferences>("/api/notifications/preferences", {
    mail: { [kind]: mail },
  });
  return data;
}
