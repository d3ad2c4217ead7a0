/**
 * The headless CMS (issue 14), and two services other modules reuse:
 * - `record_versions`: every explicit save and publish of a versioned record (who, when, what),
 *   for any resource (CMS entries now; form definitions later).
 * - `webhooks` and `webhook_deliveries`: signed outbound webhooks and their delivery log, for any
 *   module (`module_id` says whose).
 * The CMS's own tables: content types (a JSON Schema kept as data, the engine's EntitySchema
 * format), entries (values in `jsonb`: the draft, and the published copy the public reads),
 * per-domain read tokens and navigations.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table record_versions (
      id uuid primary key default gen_random_uuid(),
      resource text not null,
      record_id uuid not null,
      number integer not null check (number >= 1),
      kind text not null check (kind in ('save', 'publish', 'restore')),
      data jsonb not null,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      constraint record_versions_number_key unique (resource, record_id, number)
    );

    create table content_types (
      id uuid primary key default gen_random_uuid(),
      kind text not null check (kind in ('collection', 'single', 'component')),
      api_name text not null check (api_name ~ '^[a-z][a-z0-9-]{0,62}$'),
      name text not null check (char_length(name) between 1 and 120),
      schema jsonb not null,
      schema_version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      updated_by uuid references users (id) on delete set null,
      constraint content_types_api_name_key unique (api_name)
    );

    create table cms_entries (
      id uuid primary key default gen_random_uuid(),
      type_id uuid not null references content_types (id) on delete cascade,
      domain_ids uuid[] not null default '{}',
      status text not null default 'draft' check (status in ('draft', 'published', 'unpublished')),
      data jsonb not null,
      published jsonb,
      published_at timestamptz,
      slug text,
      -- Changes on every write (autosave too): a save naming an older one is a conflict.
      revision integer not null default 1,
      -- The last version recorded in record_versions (0: none yet).
      version integer not null default 0,
      draft_changed boolean not null default true,
      publish_at timestamptz,
      unpublish_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      updated_by uuid references users (id) on delete set null
    );
    create index cms_entries_type_idx on cms_entries (type_id, updated_at);
    create index cms_entries_slug_idx on cms_entries (type_id, slug);
    create index cms_entries_domains_idx on cms_entries using gin (domain_ids);
    create index cms_entries_published_idx on cms_entries using gin (published jsonb_path_ops);

    create table cms_api_tokens (
      id uuid primary key default gen_random_uuid(),
      domain_id uuid not null references cms_domains (id) on delete cascade,
      name text not null check (char_length(name) between 1 and 120),
      token_hash text not null,
      prefix text not null,
      last_used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      constraint cms_api_tokens_hash_key unique (token_hash)
    );

    create table cms_navigations (
      id uuid primary key default gen_random_uuid(),
      domain_id uuid not null references cms_domains (id) on delete cascade,
      name text not null check (name ~ '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$'),
      title text not null check (char_length(title) between 1 and 120),
      max_depth integer not null default 3 check (max_depth between 1 and 8),
      items jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      updated_by uuid references users (id) on delete set null,
      constraint cms_navigations_name_key unique (domain_id, name)
    );

    create table webhooks (
      id uuid primary key default gen_random_uuid(),
      module_id integer not null,
      name text not null check (char_length(name) between 1 and 120),
      url text not null check (char_length(url) between 1 and 2000),
      events jsonb not null,
      secret text not null,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null
    );

    create table webhook_deliveries (
      id uuid primary key default gen_random_uuid(),
      webhook_id uuid not null references webhooks (id) on delete cascade,
      event text not null,
      payload jsonb not null,
      state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      response_status integer,
      error text,
      created_at timestamptz not null default now(),
      delivered_at timestamptz
    );
    create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, created_at desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists webhook_deliveries;
    drop table if exists webhooks;
    drop table if exists cms_navigations;
    drop table if exists cms_api_tokens;
    drop table if exists cms_entries;
    drop table if exists content_types;
    drop table if exists record_versions;
  `.execute(db);
}
