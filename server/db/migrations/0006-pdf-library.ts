/**
 * PDF library (issue: catalogue upload and processing, hotspots, public viewer, analytics).
 * `pdfs` is generated from schemas/pdfs.ts (by the generator that is now `npm run migration:new`, reviewed); the
 * module's own tables follow: pages (text for search, word boxes, rendered images), links
 * (hotspots, kept across a file replace), public events (analytics) and resumable uploads.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- pdfs (generated)
    create table pdfs (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users(id) on delete set null,
      updated_by uuid references users(id) on delete set null,
      name text not null,
      slug text,
      pdfstatus boolean not null default false,
      pdflist_status text check (pdflist_status in ('queued', 'processing', 'ready', 'error')),
      processing_text text,
      progress integer,
      error_message text,
      page_count integer,
      file_size integer,
      original_name text,
      file_key text,
      file_url text,
      thumbnail_url text,
      version integer,
      processed_at timestamptz,
      constraint pdfs_slug_key unique (slug)
    );
    create index pdfs_name_idx on pdfs (name);
    create index pdfs_pdfstatus_idx on pdfs (pdfstatus);
    create index pdfs_pdflist_status_idx on pdfs (pdflist_status);
    create index pdfs_page_count_idx on pdfs (page_count);
    create index pdfs_file_size_idx on pdfs (file_size);
    create index pdfs_created_at_idx on pdfs (created_at);
    create index pdfs_updated_at_idx on pdfs (updated_at);
    

    -- One row per page of the current file. Upserted by processing, so links_revision
    -- (the hotspot editor's optimistic lock) survives re-processing.
    create table pdf_pages (
      pdf_id uuid not null references pdfs(id) on delete cascade,
      page integer not null check (page >= 1),
      version integer not null,
      width double precision not null,
      height double precision not null,
      text text not null default '',
      words jsonb not null default '[]',
      images jsonb not null default '{}',
      links_revision integer not null default 0,
      tsv tsvector generated always as (to_tsvector('simple', text)) stored,
      primary key (pdf_id, page)
    );
    create index pdf_pages_tsv_idx on pdf_pages using gin (tsv);

    create table pdf_links (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users(id) on delete set null,
      updated_by uuid references users(id) on delete set null,
      pdf_id uuid not null references pdfs(id) on delete cascade,
      page integer not null check (page >= 1),
      x double precision not null check (x >= 0 and x <= 1),
      y double precision not null check (y >= 0 and y <= 1),
      w double precision not null check (w > 0 and x + w <= 1.000001),
      h double precision not null check (h > 0 and y + h <= 1.000001),
      kind text not null check (kind in ('pageLink', 'link', 'video', 'iframe', 'text', 'addProduct', 'addProductDetails')),
      target jsonb not null default '{}',
      button jsonb,
      position integer not null default 0
    );
    create index pdf_links_pdf_page_idx on pdf_links (pdf_id, page, position);

    create table pdf_events (
      id bigint generated always as identity primary key,
      created_at timestamptz not null default now(),
      pdf_id uuid not null references pdfs(id) on delete cascade,
      type text not null check (type in ('view', 'search', 'click')),
      visitor_id text not null,
      page integer,
      word text,
      link_id uuid
    );
    create index pdf_events_pdf_created_idx on pdf_events (pdf_id, created_at);
    create index pdf_events_created_idx on pdf_events (created_at);

    -- Resumable uploads: chunks are stored objects (uploads/pdf/<id>/<index>), so any
    -- instance can take the next chunk and a dropped connection resumes where it stopped.
    create table pdf_uploads (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users(id) on delete set null,
      name text not null,
      original_name text not null,
      size bigint not null check (size > 0),
      chunk_size integer not null,
      received integer[] not null default '{}',
      pdf_id uuid references pdfs(id) on delete cascade
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table pdf_uploads; drop table pdf_events; drop table pdf_links; drop table pdf_pages; drop table pdfs;`.execute(
    db,
  );
}
