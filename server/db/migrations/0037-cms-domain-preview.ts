/**
 * Brings cms_domains up to date with its schema. Generated from the schemas and server/db/snapshots/
 * by
 *   npm run migration:new -- domains --name cms-domain-preview
 * then reviewed.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- domains (changed)
    alter table cms_domains add column preview_url text;
    -- reviewed: a new column, null in every existing row, which the check admits
    alter table cms_domains add constraint cms_domains_preview_url_check check (char_length(preview_url) <= 500);
  `.execute(db);
}
