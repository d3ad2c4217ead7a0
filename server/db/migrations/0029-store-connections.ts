/**
 * The online store's connections (issue 18): a commerce platform's store (platform 13,
 * BigCommerce), its API token sealed by the secret box, how its last check went, and which one is
 * the default (at most one).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table store_connections (
      id uuid primary key default gen_random_uuid(),
      platform integer not null check (platform in (13)),
      name text not null check (char_length(name) between 1 and 120),
      store_hash text not null check (store_hash ~ '^[A-Za-z0-9]{1,40}$'),
      token_sealed text not null,
      store_name text,
      currency text,
      is_default boolean not null default false,
      status text not null default 'connected' check (status in ('connected', 'failing')),
      last_checked_at timestamptz,
      last_error text,
      last_sync_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      constraint store_connections_store_key unique (platform, store_hash)
    );
    create unique index store_connections_one_default on store_connections (is_default) where is_default;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table store_connections`.execute(db);
}
