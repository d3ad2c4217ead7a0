/**
 * Durable job queue (server/jobs): one row per job, taken with FOR UPDATE SKIP LOCKED so
 * several instances on one PostgreSQL database (or one process on PGlite) never run a job
 * twice at once. A job's `key` is unique among its name's queued and running jobs (the
 * singleton index), which is what makes a keyed enqueue answer the pending job's id.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table jobs (
      id uuid primary key default gen_random_uuid(),
      name text not null check (length(name) between 1 and 200),
      payload jsonb not null default 'null',
      state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed')),
      attempts integer not null default 0 check (attempts >= 0),
      max_attempts integer not null default 5 check (max_attempts >= 1),
      run_at timestamptz not null default now(),
      locked_by text,
      locked_until timestamptz,
      last_error text,
      key text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      finished_at timestamptz,
      check (state <> 'running' or (locked_by is not null and locked_until is not null))
    );
    create unique index jobs_singleton_key on jobs (name, key)
      where key is not null and state in ('queued', 'running');
    create index jobs_take_idx on jobs (name, run_at) where state in ('queued', 'running');
    create index jobs_done_idx on jobs (finished_at) where state = 'done';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists jobs`.execute(db);
}
