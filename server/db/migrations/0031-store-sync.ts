/**
 * The store sync (issue 18): products gain a stock level and "Variant of" (parent_id); the
 * store's links (which catalogue product is which store product or variant, and when each side
 * last changed) and the syncs with their report.
 *
 * Products part: brings products up to date with its schema. Generated from the schemas and server/db/snapshots/ by
 *   npm run migration:new -- products --name store-sync
 * then reviewed.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- products (changed)
    alter table products add column stock_level integer;
    alter table products add column parent_id uuid;
    -- reviewed: both columns are new and null on every row, so the check holds
    alter table products add constraint products_stock_level_check check (stock_level >= 0 and stock_level <= 2147483647);
    create index products_stock_level_idx on products (stock_level);
    create index products_parent_id_idx on products (parent_id);
    alter table products add constraint products_parent_id_fkey foreign key (parent_id) references products (id) on delete cascade;
  `.execute(db);

  // Store part (hand-written, like 0029): the links and the syncs.
  await sql`
    create table store_product_links (
      connection_id uuid not null references store_connections (id) on delete cascade,
      product_id uuid not null references products (id) on delete cascade,
      bc_product_id integer not null,
      bc_variant_id integer,
      store_modified_at timestamptz,
      local_updated_at timestamptz,
      synced_at timestamptz not null default now(),
      primary key (connection_id, product_id)
    );
    create unique index store_product_links_store_key
      on store_product_links (connection_id, bc_product_id, coalesce(bc_variant_id, 0));
    create index store_product_links_product_idx on store_product_links (product_id);

    create table store_syncs (
      id uuid primary key default gen_random_uuid(),
      connection_id uuid not null references store_connections (id) on delete cascade,
      status text not null default 'queued' check (status in ('queued', 'running', 'finished', 'failed')),
      total integer not null default 0,
      done integer not null default 0,
      created integer not null default 0,
      updated integer not null default 0,
      skipped integer not null default 0,
      conflicts integer not null default 0,
      report jsonb not null default '[]'::jsonb,
      error text,
      requested_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz
    );
    create index store_syncs_connection_idx on store_syncs (connection_id, created_at desc);
    create unique index store_syncs_one_at_a_time on store_syncs (connection_id)
      where status in ('queued', 'running');
  `.execute(db);
}
