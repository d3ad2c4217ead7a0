/**
 * Schema constraints become database constraints: each field's length, range, enum and item
 * rules as one named check (`<table>_<field>_check`), so a write that skips the validator (a
 * module's own SQL, a script) meets the same rules. Generated from the schemas and
 * server/db/snapshots/ by
 *   npm run migration:new -- categories sub-categories products pdfs --name schema-constraints
 * then reviewed. Uniques, foreign keys and their `on delete` were already in place (0002, 0003,
 * 0006); the enum checks of products and pdfs keep their names and definitions.
 *
 * Existing rows: every value of these columns was written through the same validator (the
 * resource engine), or by the PDF module, whose writes stay inside the bounds (names cut to
 * 200, slugs at most 67 characters, error messages cut to 1000, progress 0–100). So the
 * checks validate at once. A row that does not pass stops this migration, naming the check,
 * and nothing changes (the migration runs in one transaction): fix that row, then start again.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- categories (changed)
    alter table categories add constraint categories_name_check check (char_length(name) >= 1 and char_length(name) <= 120);
    alter table categories add constraint categories_products_cat_id_check check (products_cat_id >= 1 and products_cat_id <= 2147483647);
    alter table categories add constraint categories_description_check check (char_length(description) <= 2000);

    -- sub-categories (changed)
    alter table sub_categories add constraint sub_categories_name_check check (char_length(name) >= 1 and char_length(name) <= 120);
    alter table sub_categories add constraint sub_categories_description_check check (char_length(description) <= 2000);

    -- products (changed)
    alter table products add constraint products_sku_code_check check (char_length(sku_code) >= 1 and char_length(sku_code) <= 64);
    alter table products add constraint products_name_check check (char_length(name) >= 1 and char_length(name) <= 200);
    alter table products add constraint products_description_check check (char_length(description) <= 5000);
    alter table products add constraint products_price_check check (price >= 0 and price <= 999999999.99);
    alter table products add constraint products_images_check check (jsonb_array_length(images) <= 20);

    -- pdfs (changed)
    alter table pdfs add constraint pdfs_name_check check (char_length(name) >= 1 and char_length(name) <= 200);
    alter table pdfs add constraint pdfs_slug_check check (char_length(slug) >= 3 and char_length(slug) <= 80);
    alter table pdfs add constraint pdfs_processing_text_check check (char_length(processing_text) <= 200);
    alter table pdfs add constraint pdfs_progress_check check (progress >= 0 and progress <= 100);
    alter table pdfs add constraint pdfs_error_message_check check (char_length(error_message) <= 1000);
    alter table pdfs add constraint pdfs_page_count_check check (page_count >= 0 and page_count <= 100000);
    alter table pdfs add constraint pdfs_file_size_check check (file_size >= 0 and file_size <= 2147483647);
    alter table pdfs add constraint pdfs_original_name_check check (char_length(original_name) <= 255);
    alter table pdfs add constraint pdfs_file_key_check check (char_length(file_key) <= 500);
    alter table pdfs add constraint pdfs_file_url_check check (char_length(file_url) <= 2000);
    alter table pdfs add constraint pdfs_thumbnail_url_check check (char_length(thumbnail_url) <= 2000);
    alter table pdfs add constraint pdfs_version_check check (version >= 1 and version <= 2147483647);
  `.execute(db);
}
