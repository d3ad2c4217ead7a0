/**
 * Proposals (issue 18). `proposals` is generated from the schema and server/db/snapshots/ by
 *   npm run migration:new -- proposals --name proposals
 * then reviewed (numbered 0032: 0031 is the store sync's). `proposal_lines` is the store
 * module's own: a proposal's products as they were when added (SKU, name, list price copied,
 * so a later price change does not move a proposal's money), with each line's discount
 * (Product discount only). `proposal_numbers` gives the proposals' numbers (P-000001). The
 * client's timeline gains the kind 'proposal'.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- proposals (new)
    create table proposals (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid,
      updated_by uuid,
      number text,
      title text not null,
      client_id uuid not null,
      opportunity_id uuid,
      currency text not null default 'INR',
      discount_option integer not null default 3,
      total_discount_kind text,
      total_discount_value numeric(14, 2),
      valid_until date,
      notes text,
      status text not null default 'draft',
      subtotal numeric(14, 2) not null default 0,
      discount_total numeric(14, 2) not null default 0,
      total numeric(14, 2) not null default 0,
      share_token text,
      sent_at timestamptz,
      decided_at timestamptz,
      constraint proposals_number_check check (char_length(number) <= 20),
      constraint proposals_title_check check (char_length(title) >= 1 and char_length(title) <= 200),
      constraint proposals_currency_check check (currency in ('INR', 'USD', 'EUR', 'GBP', 'AED', 'SGD', 'AUD', 'CAD', 'JPY')),
      constraint proposals_discount_option_check check (discount_option in (1, 2, 3)),
      constraint proposals_total_discount_kind_check check (total_discount_kind in ('percent', 'amount')),
      constraint proposals_total_discount_value_check check (total_discount_value >= 0 and total_discount_value <= 999999999.99),
      constraint proposals_notes_check check (char_length(notes) <= 2000),
      constraint proposals_status_check check (status in ('draft', 'sent', 'accepted', 'declined', 'expired')),
      constraint proposals_subtotal_check check (subtotal >= 0 and subtotal <= 9999999999.99),
      constraint proposals_discount_total_check check (discount_total >= 0 and discount_total <= 9999999999.99),
      constraint proposals_total_check check (total >= 0 and total <= 9999999999.99),
      constraint proposals_share_token_check check (char_length(share_token) <= 64),
      constraint proposals_number_key unique (number),
      constraint proposals_share_token_key unique (share_token),
      constraint proposals_created_by_fkey foreign key (created_by) references users (id) on delete set null,
      constraint proposals_updated_by_fkey foreign key (updated_by) references users (id) on delete set null,
      constraint proposals_client_id_fkey foreign key (client_id) references clients (id) on delete cascade,
      constraint proposals_opportunity_id_fkey foreign key (opportunity_id) references opportunities (id) on delete set null
    );
    create index proposals_title_idx on proposals (title);
    create index proposals_client_id_idx on proposals (client_id);
    create index proposals_opportunity_id_idx on proposals (opportunity_id);
    create index proposals_status_idx on proposals (status);
    create index proposals_currency_idx on proposals (currency);
    create index proposals_total_idx on proposals (total);
    create index proposals_valid_until_idx on proposals (valid_until);
    create index proposals_updated_at_idx on proposals (updated_at);

    create sequence proposal_numbers;

    create table proposal_lines (
      id uuid primary key default gen_random_uuid(),
      proposal_id uuid not null references proposals (id) on delete cascade,
      position integer not null check (position >= 0),
      product_id uuid references products (id) on delete set null,
      sku text not null check (char_length(sku) between 1 and 100),
      name text not null check (char_length(name) between 1 and 300),
      unit_price numeric(14, 2) not null check (unit_price >= 0),
      quantity integer not null check (quantity between 1 and 1000000),
      discount_kind text check (discount_kind in ('percent', 'amount')),
      discount_value numeric(14, 2) check (discount_value >= 0),
      unique (proposal_id, position)
    );
    create index proposal_lines_product_id_idx on proposal_lines (product_id);

    -- A client's timeline tells of their proposals (sent, accepted, declined): the kinds only grow.
    alter table crm_timeline drop constraint crm_timeline_kind_check;
    alter table crm_timeline add constraint crm_timeline_kind_check check (kind in ('note', 'email_out', 'email_in', 'sms_out', 'sms_in', 'form', 'opportunity', 'meeting', 'task', 'sequence', 'proposal'));
  `.execute(db);
}
