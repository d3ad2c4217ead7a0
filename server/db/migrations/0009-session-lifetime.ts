/**
 * Passwords and session lifetimes:
 * - an invited user has no password until they set one from the mailed link, so
 *   `users.password_hash` may be null (sign-in then always fails);
 * - a password link is either a reset or an invitation (`kind`), which changes its wording
 *   and lifetime only;
 * - `sessions.last_active_at` drives the optional idle timeout. It is written at most once a
 *   minute per session, so it costs nothing on most requests.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users alter column password_hash drop not null;
    alter table password_resets
      add column kind text not null default 'reset' check (kind in ('reset', 'invite'));
    alter table sessions add column last_active_at timestamptz not null default now();
  `.execute(db);
}
