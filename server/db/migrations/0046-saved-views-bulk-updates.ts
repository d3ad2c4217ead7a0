/**
 * Saved views and bulk edit (issue 31), by hand (not resources):
 *
 * - `saved_views`: a list's filters, sort, columns and page size under a name, per resource;
 *   personal (its owner's) or shared with everyone who has the resource's module. A name is
 *   unique among the views one person sees (the service checks it across both kinds; these
 *   indexes hold it under concurrent saves of the same kind).
 * - `saved_view_defaults`: the view a person's list opens with, per resource; gone with the view.
 * - `bulk_updates`: one bulk edit run as a job (server/resources/bulk): the ids it was asked
 *   for, fixed when it started, and its progress and refusals, polled by the list screen.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table saved_views (
      id uuid primary key default gen_random_uuid(),
      resource text not null,
      name text not null,
      owner_id uuid not null references users (id) on delete cascade,
      shared boolean not null default false,
      state jsonb not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index saved_views_shared_name on saved_views (resource, lower(name)) where shared;
    create unique index saved_views_personal_name on saved_views (resource, owner_id, lower(name))
      where not shared;
    create index saved_views_owner_idx on saved_views (owner_id);

    create table saved_view_defaults (
      user_id uuid not null references users (id) on delete cascade,
      resource text not null,
      view_id uuid not null references saved_views (id) on delete cascade,
      primary key (user_id, resource)
    );
    create index saved_view_defaults_view_idx on saved_view_defaults (view_id);

    create table bulk_updates (
      id uuid primary key default gen_random_uuid(),
      resource text not null,
      field text not null,
      value jsonb,
      ids jsonb not null,
      status text not null default 'queued' check (status in ('queued', 'running', 'finished', 'failed')),
      total integer not null,
      done integer not null default 0,
      updated integer not null default 0,
      refused integer not null default 0,
      errors jsonb not null default '[]'::jsonb,
      error text,
      requested_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index bulk_updates_created_idx on bulk_updates (created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table bulk_updates; drop table saved_view_defaults; drop table saved_views;`.execute(db);
}
