/**
 * Idempotency keys of create routes (server/http/idempotency.ts): one row per (scope, route,
 * key). A row is `running` while its first request runs (a lease, `locked_until`, lets a
 * crashed request's key be taken again) and `done` with the answer to replay once it has one.
 * Rows past `expires_at` are deleted by a sweep and may be claimed again before that.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idempotency_keys (
      scope text not null check (length(scope) between 1 and 300),
      route text not null check (length(route) between 1 and 1000),
      key text not null check (length(key) between 1 and 255),
      request_hash text not null,
      state text not null default 'running' check (state in ('running', 'done')),
      claim_id uuid not null,
      locked_until timestamptz,
      status integer,
      headers jsonb,
      body text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      primary key (scope, route, key),
      check (state <> 'running' or locked_until is not null),
      check (state <> 'done' or status is not null)
    );
    create index idempotency_keys_expires_idx on idempotency_keys (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists idempotency_keys`.execute(db);
}
