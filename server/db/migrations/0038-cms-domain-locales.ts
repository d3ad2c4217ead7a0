/**
 * Brings cms_domains up to date with its schema. Generated from the schemas and server/db/snapshots/
 * by
 *   npm run migration:new -- domains --name cms-domain-locales
 * then reviewed.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- domains (changed)
    alter table cms_domains add column default_locale text not null default 'en';
    -- reviewed: existing domains get no other locale (their content is the default locale's),
    -- then the column has no default, as the engine writes it
    alter table cms_domains add column locales jsonb not null default '[]'::jsonb;
    alter table cms_domains alter column locales drop default;
    -- reviewed: 'en' and [] satisfy both checks
    alter table cms_domains add constraint cms_domains_default_locale_check check (char_length(default_locale) >= 2 and char_length(default_locale) <= 35);
    alter table cms_domains add constraint cms_domains_locales_check check (jsonb_array_length(locales) <= 30);
  `.execute(db);
}
