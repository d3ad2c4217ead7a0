/**
 * The online store's webhooks and carts (issue 18). A connection keeps the secret its store's
 * webhooks carry in a custom header (BigCommerce authenticates webhooks by headers set when they
 * are registered, not by a signature), sealed, and how their registration went. `store_carts`
 * holds the carts the carts list shows: a store's abandoned carts (its `store/cart/abandoned`
 * webhook), the carts the public catalogue viewer handed to the store at checkout, and the carts
 * proposals were made into. A client's
 * timeline gains the kind `store`.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table store_connections
      add column webhook_secret_sealed text,
      add column webhooks_status text not null default 'none'
        check (webhooks_status in ('none', 'registered', 'failing')),
      add column webhooks_error text,
      add column webhooks_at timestamptz;

    create table store_carts (
      id uuid primary key default gen_random_uuid(),
      source text not null check (source in ('store', 'catalogue', 'proposal')),
      status text not null check (status in ('abandoned', 'checked_out', 'converted')),
      connection_id uuid references store_connections (id) on delete set null,
      -- The store's cart id; one row per store cart.
      external_id text,
      pdf_id uuid references pdfs (id) on delete set null,
      -- The proposal a cart was made from (its "Convert to cart").
      proposal_id uuid references proposals (id) on delete set null,
      client_id uuid references clients (id) on delete set null,
      customer_name text,
      email text,
      currency text not null,
      total_minor bigint not null default 0 check (total_minor >= 0),
      item_count integer not null default 0 check (item_count >= 0),
      items jsonb not null default '[]',
      checkout_url text,
      order_id text,
      -- When the cart was last changed (the store's updated_time), for its age.
      cart_updated_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint store_carts_external_key unique (connection_id, external_id)
    );
    create index store_carts_list_idx on store_carts (cart_updated_at desc, id);
    create index store_carts_client_idx on store_carts (client_id) where client_id is not null;

    -- A client's timeline records their carts and orders in the store (proposals have theirs, 0032).
    alter table crm_timeline drop constraint crm_timeline_kind_check;
    alter table crm_timeline add constraint crm_timeline_kind_check check (kind in ('note', 'email_out', 'email_in', 'sms_out', 'sms_in', 'form', 'opportunity', 'meeting', 'task', 'sequence', 'proposal', 'store'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table store_carts;
    alter table store_connections
      drop column webhook_secret_sealed,
      drop column webhooks_status,
      drop column webhooks_error,
      drop column webhooks_at;
  `.execute(db);
}
