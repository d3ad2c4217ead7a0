/**
 * Multi-page forms' partial answers and funnel (issue 29), by hand (neither table is a resource):
 * - `form_partials`: a visitor's answers kept as they go, keyed by the hash of the resume token
 *   their browser keeps (the token itself is never stored), with the page they are on, the
 *   furthest page reached and the tracking of their visit; deleted on submission, or by the
 *   recurring sweep once `expires_at` (last save + the form's resume window) has passed;
 * - `form_stats` gains the funnel's counts per form, day and utm_source: `starts` (a first
 *   answer kept) and `reached` (reached[k]: visitors who reached page k, counted from 0; page 0 is the start).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table form_partials (
      id uuid primary key default gen_random_uuid(),
      form_id uuid not null references forms (id) on delete cascade,
      token_hash text not null unique,
      version integer not null,
      answers jsonb not null default '{}',
      page integer not null default 0,
      furthest integer not null default 0,
      tracking jsonb not null default '{}',
      utm_source text not null default '',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index form_partials_form_updated on form_partials (form_id, updated_at desc);
    create index form_partials_expires on form_partials (expires_at);

    alter table form_stats add column starts integer not null default 0;
    alter table form_stats add column reached integer[] not null default '{}';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table form_stats drop column reached;
    alter table form_stats drop column starts;
    drop table form_partials;
  `.execute(db);
}
