/**
 * Workflow automation (issue 17). `automations` is generated from the schema and
 * server/db/snapshots/ by
 *   npm run migration:new -- automations --name automations
 * then reviewed; `automation_definitions` is the module's own: the flow the canvas edits (the
 * draft), the one that runs (the published version, also kept numbered in `record_versions`),
 * and the incoming webhook's secret. Runs are the run engine's (kind 'automation', owner key the
 * automation's id: migration 0018), each pinned to the definition it started with.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- automations (new)
    create table automations (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid,
      updated_by uuid,
      name text not null,
      description text,
      status text not null default 'draft',
      owner_id uuid,
      trigger_kind text,
      published_version integer,
      published_at timestamptz,
      last_run_at timestamptz,
      failed_runs integer not null default 0,
      constraint automations_name_check check (char_length(name) >= 1 and char_length(name) <= 120),
      constraint automations_description_check check (char_length(description) <= 1000),
      constraint automations_status_check check (status in ('draft', 'active', 'paused')),
      constraint automations_trigger_kind_check check (char_length(trigger_kind) <= 40),
      constraint automations_published_version_check check (published_version >= 1),
      constraint automations_failed_runs_check check (failed_runs >= 0),
      constraint automations_name_key unique (name),
      constraint automations_created_by_fkey foreign key (created_by) references users (id) on delete set null,
      constraint automations_updated_by_fkey foreign key (updated_by) references users (id) on delete set null,
      constraint automations_owner_id_fkey foreign key (owner_id) references users (id) on delete set null
    );
    create index automations_status_idx on automations (status);
    create index automations_owner_id_idx on automations (owner_id);
    create index automations_last_run_at_idx on automations (last_run_at);
    create index automations_failed_runs_idx on automations (failed_runs);
    create index automations_updated_at_idx on automations (updated_at);

    create table automation_definitions (
      automation_id uuid primary key references automations (id) on delete cascade,
      draft jsonb not null check (jsonb_typeof(draft) = 'object'),
      -- Goes up by one at each save of the draft: a save from an older one is a 409.
      revision integer not null default 1 check (revision >= 1),
      published jsonb check (jsonb_typeof(published) = 'object'),
      -- Random per automation, only ever compared in constant time; a new one replaces it.
      webhook_secret text not null check (length(webhook_secret) between 32 and 128),
      -- When the published schedule trigger next fires (its job is queued for that time).
      next_run_at timestamptz,
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id) on delete set null
    );
  `.execute(db);
}
