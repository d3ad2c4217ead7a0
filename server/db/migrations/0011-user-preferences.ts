/**
 * Per-user preferences (server/modules/preferences): one JSON value per (user, key), such as
 * a list's hidden columns or the folded sider. On the server, not in local storage, because
 * signing out clears local storage (spec §8) and the choice should follow the user to
 * another device. Rows go with their user.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table user_preferences (
      user_id uuid not null references users (id) on delete cascade,
      key text not null check (key ~ '^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$'),
      value jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (user_id, key)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists user_preferences`.execute(db);
}
