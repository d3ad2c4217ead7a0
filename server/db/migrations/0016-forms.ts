/**
 * Forms (issue 15). `forms` is generated from the schema and server/db/snapshots/ by
 *   npm run migration:new -- forms --name forms
 * then reviewed; the rest is the module's own:
 * - `form_definitions`: the builder's draft (fields and settings) with its revision, and the
 *   published definition the public reads;
 * - `form_submissions`: answers and tracking, one row each (the idempotency key of a public
 *   submission is unique per form, so a retried POST stores it once);
 * - `form_stats`: views and submissions per form, day and utm_source (the insights charts);
 * - `form_files`: files uploaded to a form's file fields, claimed by the submission that names them
 *   (a row whose form or submission went, or never claimed, is loose: its file is removed);
 * - mail Cc, Bcc and Reply-To in the outbox (form notifications).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- forms (new)
    create table forms (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid,
      updated_by uuid,
      name text not null,
      slug text not null,
      description text,
      accepting boolean not null default true,
      status text not null default 'draft',
      has_changes boolean not null default false,
      published_version integer,
      published_at timestamptz,
      constraint forms_name_check check (char_length(name) >= 1 and char_length(name) <= 120),
      constraint forms_slug_check check (char_length(slug) >= 1 and char_length(slug) <= 80),
      constraint forms_description_check check (char_length(description) <= 500),
      constraint forms_status_check check (status in ('draft', 'published')),
      constraint forms_published_version_check check (published_version >= 1),
      constraint forms_slug_key unique (slug),
      constraint forms_created_by_fkey foreign key (created_by) references users (id) on delete set null,
      constraint forms_updated_by_fkey foreign key (updated_by) references users (id) on delete set null
    );
    create index forms_name_idx on forms (name);
    create index forms_status_idx on forms (status);
    create index forms_accepting_idx on forms (accepting);
    create index forms_published_at_idx on forms (published_at);
    create index forms_updated_at_idx on forms (updated_at);

    create table form_definitions (
      form_id uuid primary key references forms (id) on delete cascade,
      draft jsonb not null,
      revision integer not null default 1,
      published jsonb,
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id) on delete set null
    );

    create table form_submissions (
      id uuid primary key default gen_random_uuid(),
      form_id uuid not null references forms (id) on delete cascade,
      version integer not null,
      answers jsonb not null,
      tracking jsonb not null,
      utm_source text not null default '',
      idempotency_key text,
      created_at timestamptz not null default now(),
      constraint form_submissions_key unique (form_id, idempotency_key)
    );
    create index form_submissions_form_created_idx on form_submissions (form_id, created_at desc);

    create table form_stats (
      form_id uuid not null references forms (id) on delete cascade,
      day date not null,
      utm_source text not null default '',
      views integer not null default 0,
      submissions integer not null default 0,
      primary key (form_id, day, utm_source)
    );

    create table form_files (
      token text primary key,
      form_id uuid references forms (id) on delete set null,
      field_id text not null,
      storage_key text not null,
      file_name text not null,
      content_type text not null,
      size integer not null,
      submission_id uuid references form_submissions (id) on delete set null,
      created_at timestamptz not null default now()
    );
    create index form_files_unclaimed_idx on form_files (created_at) where submission_id is null;

    alter table mail_outbox
      add column cc jsonb not null default '[]',
      add column bcc jsonb not null default '[]',
      add column reply_to text;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table mail_outbox drop column cc, drop column bcc, drop column reply_to;
    drop table form_files;
    drop table form_stats;
    drop table form_submissions;
    drop table form_definitions;
    drop table forms;
  `.execute(db);
}
