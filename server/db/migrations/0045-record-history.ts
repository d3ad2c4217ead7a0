/**
 * Every record's history (issue 31): one row per write of an engine resource's record (create,
 * update, delete, CSV import, an automation's step, a store sync), written by the write's own
 * statement (server/resources/history/writer.ts).
 * - `changes`: an update's fields that changed, `{ field: [old, new] }`; a create's values (a
 *   delete's last ones), `{ field: value }`; values as `to_jsonb` gives them; secret fields never.
 * - `actor_id`: the person (no foreign key: history outlives a deleted user, and a write pays
 *   no lookup); `actor`: what else made it (`automation:<id>`, `sync:<connection>`, `import`).
 * - Indexes, kept to two since every write of every record pays for them: a record's entries
 *   (`record_id, id`: its page, a restore), and a BRIN on `at` (a few pages, nearly free to keep)
 *   for the retention sweep and an admin's "what one person changed over a period". `id` is an
 *   identity, unique without a primary key's index, and grows with time.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table record_history (
      id bigint generated always as identity,
      resource text not null,
      record_id uuid not null,
      action text not null check (action in ('created', 'updated', 'deleted')),
      actor_id uuid,
      actor text,
      at timestamptz not null default now(),
      changes jsonb not null
    );
    create index record_history_record_idx on record_history (record_id, id);
    create index record_history_at_idx on record_history using brin (at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table record_history;`.execute(db);
}
