/**
 * Digital asset manager: nested folders and assets (docs/dam-api.md). A folder's name is
 * unique among its siblings, case-insensitively, the top level included (hence the
 * expression index on coalesce(parent_id, nil uuid)). Deleting a folder deletes what is
 * below it (the server deletes the stored files after the commit).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table dam_folders (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users(id) on delete set null,
      updated_by uuid references users(id) on delete set null,
      name text not null check (length(name) between 1 and 120),
      parent_id uuid references dam_folders(id) on delete cascade,
      check (parent_id is null or parent_id <> id)
    );
    create unique index dam_folders_parent_name_key
      on dam_folders (coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));
    create index dam_folders_parent_id_idx on dam_folders (parent_id);

    create table dam_assets (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users(id) on delete set null,
      updated_by uuid references users(id) on delete set null,
      folder_id uuid references dam_folders(id) on delete cascade,
      name text not null check (length(name) between 1 and 255),
      original_name text not null,
      storage_key text not null unique,
      mime text not null,
      size bigint not null check (size >= 0),
      width integer,
      height integer,
      alt text not null default '',
      tags text[] not null default '{}'
    );
    create index dam_assets_folder_id_idx on dam_assets (folder_id);
    create index dam_assets_name_idx on dam_assets (lower(name));
    create index dam_assets_created_at_idx on dam_assets (created_at);
    create index dam_assets_size_idx on dam_assets (size);
    create index dam_assets_tags_idx on dam_assets using gin (tags);
  `.execute(db);
}
