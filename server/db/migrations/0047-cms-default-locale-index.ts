/**
 * A type's entries in the default locale (`source_id is null`: entries themselves, not their
 * variants in other locales), newest first: the CMS entry list's page and its count. With only
 * `(type_id, updated_at)`, counting a type's entries since locales (0039) read every row from
 * the table to see its `source_id`; this index answers the count from itself.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index cms_entries_type_default_idx on cms_entries (type_id, updated_at) where source_id is null
  `.execute(db);
}
