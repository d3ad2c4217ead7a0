/**
 * The calendar's calls (docs/crm-api.md, Calendar) over the CRM service base: the signed-in
 * user's CalDAV connection, and their meetings with clients.
 */
import { createServiceClient } from "../../../../providers/http";
import type {
  BookMeetingRequest,
  CalendarConnection,
  ConnectCalendarRequest,
  Meeting,
} from "../../../../schemas/crm-calendar";

const client = createServiceClient("crm");
const CONNECTION = "/calendar/connection";

export const calendarKeys = {
  connection: ["crm", "calendar", "connection"] as const,
  meetings: ["crm", "meetings"] as const,
  upcoming: (clientId: string) => ["crm", "meetings", clientId, "upcoming"] as const,
};

export async function getConnection(): Promise<CalendarConnection> {
  return (await client.get<CalendarConnection>(CONNECTION)).data;
}

/** Connects or re-authorises; the server checks the account first (400 per field when it cannot). */
export async function connectCalendar(body: ConnectCalendarRequest): Promise<CalendarConnection> {
  return (await client.put<CalendarConnection>(CONNECTION, body)).data;
}

export async function chooseCalendar(calendarUrl: string): Promise<CalendarConnection> {
  return (await client.patch<CalendarConnection>(CONNECTION, { calendarUrl })).data;
}

export async function testConnection(): Promise<CalendarConnection> {
  return (await client.post<CalendarConnection>(`${CONNECTION}/test`)).data;
}

export async function disconnectCalendar(): Promise<void> {
  await client.delete(CONNECTION);
}

export async function getUpcomingMeetings(clientId: string): Promise<{ data: Meeting[]; total: number }> {
  const params = new URLSearchParams({ clientId, upcoming: "true", pageSize: "20" });
  return (await client.get<{ data: Meeting[]; total: number }>(`/meetings?${params}`)).data;
}

export async function bookMeeting(body: BookMeetingRequest): Promise<Meeting> {
  return (await client.post<Meeting>("/meetings", body, { idempotent: true })).data;
}

export async function cancelMeeting(id: string): Promise<Meeting> {
  return (await client.post<Meeting>(`/meetings/${encodeURIComponent(id)}/cancel`)).data;
}
