/**
 * The durable run/step engine (server/runs; issue 16, extended by issue 17's automation):
 * - `run_definitions`: the steps a run follows, stored once per distinct content (keyed by its
 *   hash), so 100,000 enrolments in one sequence version hold one copy, and a run keeps the
 *   version it started with whatever is published later;
 * - `runs`: one row per run (a client enrolled in a sequence, an automation triggered), with the
 *   step it is at (`cursor`), its status, what ended it, and the outputs of its steps so far;
 * - `run_steps`: one row per step a run reached (attempts, times, input, output, error). A step
 *   runs at most once per run: (run_id, step_key) is its key.
 * The jobs that execute steps live in `jobs` (name `run.<kind>`, key `run:<run id>:<step key>`).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table run_definitions (
      hash text primary key,
      definition jsonb not null,
      created_at timestamptz not null default now()
    );

    create table runs (
      id uuid primary key default gen_random_uuid(),
      kind text not null check (kind ~ '^[a-z][a-z0-9-]{0,59}$'),
      owner_key text not null check (length(owner_key) between 1 and 200),
      version integer not null default 1 check (version >= 1),
      definition_hash text not null references run_definitions (hash),
      subject_type text check (length(subject_type) between 1 and 60),
      subject_id text check (length(subject_id) between 1 and 200),
      status text not null default 'running'
        check (status in ('running', 'waiting', 'finished', 'failed', 'exited', 'cancelled')),
      exit_reason text check (length(exit_reason) <= 200),
      cursor text,
      awaiting text,
      context jsonb not null default '{}',
      outputs jsonb not null default '{}',
      depth integer not null default 0 check (depth >= 0),
      parent_run_id uuid references runs (id) on delete set null,
      lineage text[] not null default '{}',
      dedupe_key text check (length(dedupe_key) between 1 and 300),
      steps_reached integer not null default 0 check (steps_reached >= 0),
      error text,
      started_at timestamptz not null default now(),
      finished_at timestamptz,
      updated_at timestamptz not null default now(),
      check ((subject_type is null) = (subject_id is null)),
      check ((status in ('running', 'waiting')) = (finished_at is null))
    );
    -- A module's figures (per status) and its run history, newest first.
    create index runs_owner_status_idx on runs (kind, owner_key, status);
    create index runs_owner_started_idx on runs (kind, owner_key, started_at desc);
    -- Exits and events reach the active runs of a subject (a client replied, opted out); a
    -- client's record lists every run of theirs.
    create index runs_subject_idx on runs (subject_type, subject_id, status);
    -- "Already enrolled": one active run per key and kind.
    create unique index runs_dedupe_key on runs (kind, dedupe_key)
      where dedupe_key is not null and status in ('running', 'waiting');
    create index runs_parent_idx on runs (parent_run_id) where parent_run_id is not null;

    create table run_steps (
      run_id uuid not null references runs (id) on delete cascade,
      step_key text not null check (length(step_key) between 1 and 200),
      step_type text not null,
      seq integer not null check (seq >= 1),
      status text not null default 'scheduled'
        check (status in ('scheduled', 'waiting', 'done', 'failed', 'skipped')),
      attempt integer not null default 0 check (attempt >= 0),
      due_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz,
      input jsonb,
      output jsonb,
      error text,
      primary key (run_id, step_key)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists run_steps;
    drop table if exists runs;
    drop table if exists run_definitions;
  `.execute(db);
}
