/**
 * Creates cms_domains. Generated from the schemas and server/db/snapshots/ by
 *   npm run migration:new -- domains --name cms-domains
 * then reviewed.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- domains (new)
    create table cms_domains (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid,
      updated_by uuid,
      name text not null,
      key text not null,
      hostname text,
      allowed_origins jsonb not null,
      access text not null default 'public',
      cache_control text not null default 'public, max-age=60',
      constraint cms_domains_name_check check (char_length(name) >= 1 and char_length(name) <= 120),
      constraint cms_domains_key_check check (char_length(key) >= 1 and char_length(key) <= 63),
      constraint cms_domains_hostname_check check (char_length(hostname) <= 253),
      constraint cms_domains_allowed_origins_check check (jsonb_array_length(allowed_origins) <= 20),
      constraint cms_domains_access_check check (access in ('public', 'token')),
      constraint cms_domains_cache_control_check check (char_length(cache_control) >= 1 and char_length(cache_control) <= 200),
      constraint cms_domains_key_key unique (key),
      constraint cms_domains_created_by_fkey foreign key (created_by) references users (id) on delete set null,
      constraint cms_domains_updated_by_fkey foreign key (updated_by) references users (id) on delete set null
    );
    create index cms_domains_name_idx on cms_domains (name);
    create index cms_domains_access_idx on cms_domains (access);
    create index cms_domains_updated_at_idx on cms_domains (updated_at);
  `.execute(db);
}
