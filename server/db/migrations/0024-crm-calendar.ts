/**
 * The CRM's calendar (issue 16, spec §3 `calendarAuth`) and meetings:
 * - `crm_calendar_connections`: one CalDAV account per user: the address, the user name, the app
 *   password sealed by the secret box (server/security/secret-box.ts, never stored in clear), the
 *   calendars found there and the one meetings go to, and how the last check went;
 * - `crm_meetings`: meetings booked with a client, each an event in its organiser's calendar (its
 *   URL and ETag kept, to cancel it) and an invitation mailed to the client;
 * - a mail may carry an iCalendar part (`calendar_method`, `calendar_ics`): the invitation.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table crm_calendar_connections (
      user_id uuid primary key references users (id) on delete cascade,
      server_url text not null,
      username text not null,
      password_sealed text not null,
      principal_url text not null,
      home_url text not null,
      calendars jsonb not null default '[]'::jsonb,
      calendar_url text not null,
      calendar_name text not null,
      status text not null default 'connected',
      last_checked_at timestamptz not null default now(),
      last_error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint crm_calendar_connections_status_check check (status in ('connected', 'failing')),
      constraint crm_calendar_connections_server_url_check check (char_length(server_url) <= 2000),
      constraint crm_calendar_connections_username_check check (char_length(username) between 1 and 320)
    );

    create table crm_meetings (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      client_id uuid not null references clients (id) on delete cascade,
      title text not null,
      description text,
      location text,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      time_zone text not null,
      attendee_email text not null,
      uid text not null,
      calendar_url text not null,
      event_url text not null,
      etag text,
      sequence integer not null default 0,
      status text not null default 'scheduled',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      cancelled_at timestamptz,
      constraint crm_meetings_status_check check (status in ('scheduled', 'cancelled')),
      constraint crm_meetings_times_check check (ends_at > starts_at),
      constraint crm_meetings_title_check check (char_length(title) between 1 and 200),
      constraint crm_meetings_uid_key unique (uid)
    );
    create index crm_meetings_user_starts_idx on crm_meetings (user_id, starts_at);
    create index crm_meetings_client_starts_idx on crm_meetings (client_id, starts_at);

    alter table mail_outbox add column calendar_method text, add column calendar_ics text;
  `.execute(db);
}
