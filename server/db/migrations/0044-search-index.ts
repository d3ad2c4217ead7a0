/**
 * Brings automations, categories, clients, cms_domains, crm_dropdowns, forms, opportunities, pdfs,
 * products, proposals, crm_sequences, sub_categories, crm_tasks, crm_templates up to date with their
 * schema. Generated from the schemas and server/db/snapshots/ by
 *   npm run migration:new -- automations categories clients domains dropdowns forms opportunities pdfs products proposals sequences sub-categories tasks templates --name search-index
 * then reviewed; and by hand, the extension the trigram indexes need (pg_trgm: PGlite loads it
 * too, server/db/pglite-extensions.ts) and the trigram indexes of the module tables search
 * everywhere reads beside the resources (DAM assets; users are few).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create extension if not exists pg_trgm;

    -- search everywhere's module tables (server/search/module-sources.ts)
    create index dam_assets_name_trgm_idx on dam_assets using gin (name gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- automations (changed)
    create index automations_name_trgm_idx on automations using gin (name gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index automations_description_trgm_idx on automations using gin (description gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- categories (changed)
    create index categories_name_trgm_idx on categories using gin (name gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index categories_description_trgm_idx on categories using gin (description gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- clients (changed)
    create index clients_name_trgm_idx on clients using gin (name gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index clients_company_trgm_idx on clients using gin (company gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index clients_email_trgm_idx on clients using gin (email gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index clients_phone_trgm_idx on clients using gin (phone gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- domains (changed)
    create index cms_domains_name_trgm_idx on cms_domains using gin (name gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index cms_domains_key_trgm_idx on cms_domains using gin (key gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index cms_domains_hostname_trgm_idx on cms_domains using gin (hostname gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- dropdowns (changed)
    create index crm_dropdowns_label_trgm_idx on crm_dropdowns using gin (label gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index crm_dropdowns_value_trgm_idx on crm_dropdowns using gin (value gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- forms (changed)
    create index forms_name_trgm_idx on forms using gin (name gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index forms_slug_trgm_idx on forms using gin (slug gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- opportunities (changed)
    create index opportunities_title_trgm_idx on opportunities using gin (title gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- pdfs (changed)
    create index pdfs_name_trgm_idx on pdfs using gin (name gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index pdfs_original_name_trgm_idx on pdfs using gin (original_name gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index pdfs_slug_trgm_idx on pdfs using gin (slug gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- products (changed)
    create index products_sku_code_trgm_idx on products using gin (sku_code gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index products_name_trgm_idx on products using gin (name gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index products_description_trgm_idx on products using gin (description gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- proposals (changed)
    create index proposals_number_trgm_idx on proposals using gin (number gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index proposals_title_trgm_idx on proposals using gin (title gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- sequences (changed)
    create index crm_sequences_name_trgm_idx on crm_sequences using gin (name gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index crm_sequences_description_trgm_idx on crm_sequences using gin (description gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- sub-categories (changed)
    create index sub_categories_name_trgm_idx on sub_categories using gin (name gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index sub_categories_description_trgm_idx on sub_categories using gin (description gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- tasks (changed)
    create index crm_tasks_title_trgm_idx on crm_tasks using gin (title gin_trgm_ops) with (gin_pending_list_limit = 256);

    -- templates (changed)
    create index crm_templates_name_trgm_idx on crm_templates using gin (name gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index crm_templates_subject_trgm_idx on crm_templates using gin (subject gin_trgm_ops) with (gin_pending_list_limit = 256);
    create index crm_templates_body_trgm_idx on crm_templates using gin (body gin_trgm_ops) with (gin_pending_list_limit = 256);
  `.execute(db);
}
