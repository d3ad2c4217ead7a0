/**
 * The notification centre (issue 16, server/notifications): what the header's bell lists for
 * each user. A row belongs to one user (it goes with them) and to one module, whose grant the
 * user needs to see it. `dedupe_key` lets a job that runs at least once (a task reminder)
 * notify once. The mail choices per kind live in `user_preferences` (`notifications.mail`).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notifications (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      kind text not null,
      module_id integer not null references modules (module_id),
      title text not null,
      body text not null default '',
      link text,
      data jsonb not null default '{}',
      dedupe_key text,
      created_at timestamptz not null default now(),
      read_at timestamptz,
      constraint notifications_kind_check check (kind ~ '^[a-z][a-z0-9_-]*(\\.[a-z][a-z0-9_-]*)*$' and char_length(kind) <= 64),
      constraint notifications_title_check check (char_length(title) between 1 and 200),
      constraint notifications_body_check check (char_length(body) <= 2000),
      constraint notifications_link_check check (link ~ '^/([^/\\\\]|$)' and char_length(link) <= 500),
      constraint notifications_dedupe_key_check check (char_length(dedupe_key) between 1 and 200)
    );
    -- The bell: a user's unread ones, newest first, and their count.
    create index notifications_user_read_created_idx on notifications (user_id, read_at, created_at desc);
    create unique index notifications_user_dedupe_key on notifications (user_id, dedupe_key)
      where dedupe_key is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists notifications`.execute(db);
}
