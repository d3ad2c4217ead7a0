/**
 * Content in several languages (issue 29): an entry's variant in a locale other than its
 * domains' default is a row of cms_entries of its own (its own draft, published copy, status,
 * schedule and versions), naming the entry it translates (`source_id`) and its locale; it holds
 * the type's localised fields only. An entry as it was before (no locale) is the default
 * locale's, so existing content needs no step. A variant goes with its entry.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table cms_entries add column locale text check (char_length(locale) between 2 and 35);
    alter table cms_entries add column source_id uuid references cms_entries (id) on delete cascade;
    alter table cms_entries add constraint cms_entries_locale_check2
      check ((source_id is null) = (locale is null));
    create unique index cms_entries_source_locale_key on cms_entries (source_id, locale);
  `.execute(db);
}
