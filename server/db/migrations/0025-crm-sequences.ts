/**
 * CRM sequences (issue 16). `crm_sequences` is generated from the schema and
 * server/db/snapshots/ by
 *   npm run migration:new -- sequences --name crm-sequences
 * then reviewed; `crm_sequence_steps` is the module's own: the steps the builder edits, one
 * document per sequence (its number is the sequence's `version`). Enrolments are runs of the
 * run engine (kind 'sequence', owner key the sequence's id: migration 0018).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- sequences (new)
    create table crm_sequences (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid,
      updated_by uuid,
      name text not null,
      description text,
      status text not null default 'active',
      version integer not null default 1,
      step_count integer not null default 0,
      constraint crm_sequences_name_check check (char_length(name) >= 1 and char_length(name) <= 120),
      constraint crm_sequences_description_check check (char_length(description) <= 1000),
      constraint crm_sequences_status_check check (status in ('active', 'paused')),
      constraint crm_sequences_version_check check (version >= 1),
      constraint crm_sequences_step_count_check check (step_count >= 0),
      constraint crm_sequences_name_key unique (name),
      constraint crm_sequences_created_by_fkey foreign key (created_by) references users (id) on delete set null,
      constraint crm_sequences_updated_by_fkey foreign key (updated_by) references users (id) on delete set null
    );
    create index crm_sequences_status_idx on crm_sequences (status);
    create index crm_sequences_updated_at_idx on crm_sequences (updated_at);

    create table crm_sequence_steps (
      sequence_id uuid primary key references crm_sequences (id) on delete cascade,
      steps jsonb not null default '[]'::jsonb check (jsonb_typeof(steps) = 'array'),
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id) on delete set null
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table crm_sequence_steps;
    drop table crm_sequences;
  `.execute(db);
}
