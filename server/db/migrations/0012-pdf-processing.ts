/**
 * PDF processing (issue 13): the detail line of a processing failure, and the claims that
 * make an on-demand image (a page's zoom size, an asset rendition) once across instances.
 *
 * pdfs was generated from the schemas and server/db/snapshots/ by
 *   npm run migration:new -- pdfs --name pdf-error-detail
 * then reviewed: the new column is empty on every existing row, so its check holds.
 *
 * on_demand_claims (server/storage/on-demand.ts): one row while an instance makes the object
 * at `key`; `expires_at` lets another instance take over from one that died.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- pdfs (changed)
    alter table pdfs add column error_detail text;
    alter table pdfs add constraint pdfs_error_detail_check check (char_length(error_detail) <= 4000);

    create table on_demand_claims (
      key text primary key check (length(key) between 1 and 512),
      owner text not null,
      expires_at timestamptz not null
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists on_demand_claims;
    alter table pdfs drop constraint if exists pdfs_error_detail_check;
    alter table pdfs drop column if exists error_detail;
  `.execute(db);
}
