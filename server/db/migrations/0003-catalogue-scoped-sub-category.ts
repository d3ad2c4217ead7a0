/**
 * A product's sub-category must belong to the product's category: enforced by the database
 * (a composite foreign key, `x-relation.within` in schemas/products.ts) instead of a
 * read-then-write rule, so a product write is one statement and cannot race.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create unique index if not exists sub_categories_id_category_id_key on sub_categories (id, category_id);
    alter table products add constraint products_sub_category_id_category_id_fkey
      foreign key (sub_category_id, category_id) references sub_categories (id, category_id) on delete restrict;
  `.execute(db);
}
