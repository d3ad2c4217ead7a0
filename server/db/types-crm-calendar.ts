/**
 * Tables of the CRM's calendar (issue 16): each user's CalDAV connection, and the meetings
 * booked with clients. Part of the one Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";
import type { CalendarChoice, ConnectionStatus, MeetingStatus } from "../../schemas/crm-calendar";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb written as JSON text (cast in SQL) and read back parsed. */
type Json<T> = ColumnType<T, string | undefined, string>;

export interface CrmCalendarConnectionsTable {
  user_id: string;
  server_url: string;
  username: string;
  /** The app password as the secret box sealed it; never in clear. */
  password_sealed: string;
  principal_url: string;
  home_url: string;
  calendars: Json<CalendarChoice[]>;
  calendar_url: string;
  calendar_name: string;
  status: Generated<ConnectionStatus>;
  last_checked_at: Timestamp;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CrmMeetingsTable {
  id: Generated<string>;
  /** The organiser: whose calendar holds the event. */
  user_id: string;
  client_id: string;
  title: string;
  description: string | null;
  location: string | null;
  starts_at: Timestamp;
  ends_at: Timestamp;
  time_zone: string;
  attendee_email: string;
  uid: string;
  calendar_url: string;
  event_url: string;
  etag: string | null;
  sequence: Generated<number>;
  status: Generated<MeetingStatus>;
  created_at: Timestamp;
  updated_at: Timestamp;
  cancelled_at: NullableTimestamp;
}

/** The calendar's tables, as the Database interface holds them. */
export interface CrmCalendarTables {
  crm_calendar_connections: CrmCalendarConnectionsTable;
  crm_meetings: CrmMeetingsTable;
}
