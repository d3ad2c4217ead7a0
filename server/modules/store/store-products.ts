/**
 * The store product list (issue 18, `/api/store/products`): the catalogue products linked to a
 * store, each with its link, beside the master catalogue. The engine's list contract and options
 * of `products` (page, pageSize, sort, filters, q on the same fields), over products joined to
 * their links.
 */
import { productSchema } from "../../../schemas/products";
import type { StoreProductLink } from "../../../schemas/store-sync";
import { isoOrNull as iso } from "../../../src/lib/dates";
import type { AppContext } from "../../context";
import { type ListQuery, listPage } from "../../http/list-query";
import { listOptionsOf } from "../../resources/list-options";
import { type Row, toRecord } from "../../resources/records";
import type { AnyDb } from "../../resources/rules";

export type StoreProduct = Row & { link: StoreProductLink };

export async function listStoreProducts(
  ctx: AppContext,
  query: ListQuery,
): Promise<{ data: StoreProduct[]; total: number; totalExact: boolean }> {
  const db = ctx.db as unknown as AnyDb;
  const base = db
    .selectFrom("products as t")
    .innerJoin("store_product_links as l", "l.product_id", "t.id")
    .selectAll("t")
    .select([
      "l.connection_id as link_connection_id",
      "l.bc_product_id as link_bc_product_id",
      "l.bc_variant_id as link_bc_variant_id",
      "l.store_modified_at as link_store_modified_at",
      "l.synced_at as link_synced_at",
    ]);
  const { rows, total, totalExact } = await listPage(db, base, query, listOptionsOf(productSchema));
  const data = (rows as Row[]).map((row) => ({
    ...toRecord(productSchema, row),
    link: {
      connectionId: String(row.link_connection_id),
      bcProductId: Number(row.link_bc_product_id),
      bcVariantId: row.link_bc_variant_id === null ? null : Number(row.link_bc_variant_id),
      storeModifiedAt: iso(row.link_store_modified_at as Date | null),
      syncedAt: iso(row.link_synced_at as Date) as string,
    },
  }));
  return { data, total, totalExact };
}
