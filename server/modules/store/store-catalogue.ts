/**
 * How store products become catalogue products (issue 18), one page of them at a time: by SKU,
 * each variant with its own SKU a product of its own whose "Variant of" is its product's, the
 * stock level from `inventory_level`, the category by name. A line of the report says what was
 * done with each and why. Shared by the sync job and whatever resyncs one product (a webhook).
 *
 * The conflict rule: a linked product changed on both sides since the last sync (its
 * `updated_at` past the link's `local_updated_at`, and the store's `date_modified` past the
 * link's `store_modified_at`) takes the store's version, and the report says so.
 *
 * The catalogue is written directly, not through the resource engine: the sync's own writes
 * must not be pushed back to the store (the engine's rule would queue them). Each write keeps
 * its history all the same, through the engine's history writer, as `sync:<connection>`.
 */
import { sql } from "kysely";
import { productSchema } from "../../../schemas/products";
import { CONFLICT_REASON, type StoreSyncRow } from "../../../schemas/store-sync";
import { HistoryWriter } from "../../resources/history/writer";
import type { AnyDb } from "../../resources/rules";
import type { BcProduct } from "./bigcommerce";
import { fallbackCategory } from "./store-categories";
import { type CatalogueTarget, catalogueMoney, type Item, itemsOf, problemOf, skip } from "./store-items";

export { catalogueTarget, STORE_CATEGORY_FALLBACK } from "./store-categories";
export type { CatalogueTarget } from "./store-items";

const NAME_MAX = productSchema.properties.name.maxLength;
/** The products' history writer (the resource `products`, its table `products`). */
const history = new HistoryWriter("products", "products", productSchema);

interface LinkRow {
  product_id: string;
  bc_product_id: number;
  bc_variant_id: number | null;
  store_modified_at: Date | null;
  local_updated_at: Date | null;
}

interface ProductRow {
  id: string;
  sku_code: string;
  updated_at: Date;
  category_id: string;
}

const keyOf = (bcProductId: number, bcVariantId: number | null) => `${bcProductId}:${bcVariantId ?? 0}`;

/**
 * Syncs a page of store products into the catalogue; answers the report's lines, in order (a
 * product, then its variants).
 */
export async function syncStoreProducts(
  db: AnyDb,
  target: CatalogueTarget,
  products: readonly BcProduct[],
): Promise<StoreSyncRow[]> {
  // One transaction a page (one commit, not two a product); a page the catalogue refuses some of
  // (a SKU taken meanwhile) is written again product by product, each refusal a line of its own.
  const seen = new Map(target.seen);
  const fallback = target.fallbackCategoryId;
  try {
    return await db.transaction().execute((trx) => syncPage(trx, target, products, true));
  } catch {
    target.seen = seen;
    target.fallbackCategoryId = fallback;
    return syncPage(db, target, products, false);
  }
}

async function syncPage(
  db: AnyDb,
  target: CatalogueTarget,
  products: readonly BcProduct[],
  atomic: boolean,
): Promise<StoreSyncRow[]> {
  const expanded = products.map(itemsOf);
  const all = expanded.flatMap(({ main, variants }) => [
    main,
    ...variants.filter((v): v is Item => "name" in v),
  ]);
  if (!all.length) return [];

  // What the catalogue has of this page, in two reads: the links, and the products by SKU or link.
  const links: LinkRow[] = await db
    .selectFrom("store_product_links")
    .select(["product_id", "bc_product_id", "bc_variant_id", "store_modified_at", "local_updated_at"])
    .where("connection_id", "=", target.connectionId)
    .where(
      "bc_product_id",
      "in",
      products.map((p) => p.id),
    )
    .execute();
  const linkByStore = new Map(links.map((l) => [keyOf(l.bc_product_id, l.bc_variant_id), l]));
  const skus = [...new Set(all.map((i) => i.sku).filter((s) => s !== ""))];
  const linkedIds = links.map((l) => l.product_id);
  const rows: ProductRow[] = await db
    .selectFrom("products")
    .select(["id", "sku_code", "updated_at", "category_id"])
    .where((eb) =>
      eb.or([
        ...(skus.length ? [eb("sku_code", "in", skus)] : []),
        ...(linkedIds.length ? [eb("id", "in", linkedIds)] : []),
      ]),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const bySku = new Map(rows.map((r) => [r.sku_code, r]));
  // A product found by SKU may be linked to another store product of this store already.
  const linkedElsewhere = new Map(links.map((l) => [l.product_id, l.bc_product_id]));
  const bySkuIds = rows.map((r) => r.id).filter((id) => !linkedElsewhere.has(id));
  if (bySkuIds.length) {
    const other: { product_id: string; bc_product_id: number }[] = await db
      .selectFrom("store_product_links")
      .select(["product_id", "bc_product_id"])
      .where("connection_id", "=", target.connectionId)
      .where("product_id", "in", bySkuIds)
      .execute();
    for (const o of other) linkedElsewhere.set(o.product_id, o.bc_product_id);
  }

  const report: StoreSyncRow[] = [];
  const known: Known = { linkByStore, byId, bySku, linkedElsewhere, atomic, links: [] };
  for (const { main, variants } of expanded) {
    const parentId = await syncItem(db, target, main, null, report, known);
    for (const v of variants) {
      if (!("name" in v)) {
        report.push(v);
        continue;
      }
      if (!parentId) {
        report.push(skip(v, "its product was skipped"));
        continue;
      }
      await syncItem(db, target, v, parentId, report, known);
    }
  }
  await saveLinks(db, known.links);
  return report;
}

interface Known {
  linkByStore: Map<string, LinkRow>;
  byId: Map<string, ProductRow>;
  bySku: Map<string, ProductRow>;
  linkedElsewhere: Map<string, number>;
  /** Inside the page's transaction: a refusal aborts it, so it is thrown, not reported. */
  atomic: boolean;
  /** The links of the page's written products, upserted together at its end. */
  links: NewLink[];
}

interface NewLink {
  connection_id: string;
  product_id: string;
  bc_product_id: number;
  bc_variant_id: number | null;
  store_modified_at: Date;
  local_updated_at: Date;
}

/** Links the page's products to their store products (one statement). */
async function saveLinks(db: AnyDb, links: NewLink[]): Promise<void> {
  if (!links.length) return;
  await db
    .insertInto("store_product_links")
    .values(links.map((l) => ({ ...l, synced_at: sql`now()` })))
    .onConflict((oc) =>
      oc.columns(["connection_id", "product_id"]).doUpdateSet((eb) => ({
        bc_product_id: eb.ref("excluded.bc_product_id"),
        bc_variant_id: eb.ref("excluded.bc_variant_id"),
        store_modified_at: eb.ref("excluded.store_modified_at"),
        local_updated_at: eb.ref("excluded.local_updated_at"),
        synced_at: sql`now()`,
      })),
    )
    .execute();
}

/** One item into the catalogue; answers its product's id, or null when it was skipped. */
async function syncItem(
  db: AnyDb,
  target: CatalogueTarget,
  item: Item,
  parentId: string | null,
  report: StoreSyncRow[],
  known: Known,
): Promise<string | null> {
  const problem = problemOf(item, target);
  if (problem) {
    report.push(skip(item, problem));
    return null;
  }
  target.seen.set(item.sku, item.bcProductId);
  const link = known.linkByStore.get(keyOf(item.bcProductId, item.bcVariantId));
  const linked = link ? known.byId.get(link.product_id) : undefined;
  const bySku = known.bySku.get(item.sku);
  let action: StoreSyncRow["action"] = "updated";
  let reason = "";
  let existing: ProductRow | undefined;
  if (linked) {
    existing = linked;
    if (bySku && bySku.id !== linked.id) {
      report.push(skip(item, "its new SKU belongs to another catalogue product"));
      return linked.id;
    }
    const storeChanged = !link?.store_modified_at || item.modifiedAt > link.store_modified_at;
    const localChanged = !link?.local_updated_at || linked.updated_at > link.local_updated_at;
    if (!storeChanged) {
      report.push({ ...skip(item, "unchanged in the store since the last sync") });
      return linked.id;
    }
    if (localChanged) {
      action = "conflict";
      reason = CONFLICT_REASON;
    }
  } else if (bySku) {
    const other = known.linkedElsewhere.get(bySku.id);
    if (other !== undefined) {
      report.push(skip(item, `its catalogue product is linked to store product #${other} already`));
      return null;
    }
    existing = bySku;
    reason = "was in the catalogue already, not linked: linked to the store and updated";
  } else action = "created";

  const categoryId =
    (item.categoryBcId !== undefined ? target.categories.get(item.categoryBcId) : undefined) ??
    (await fallbackCategory(db, target));
  const values = {
    sku_code: item.sku,
    name: (item.name || item.sku).slice(0, NAME_MAX),
    price: catalogueMoney(item.price),
    stock_level: item.stock,
    parent_id: parentId,
    category_id: categoryId,
    ...(target.currency ? { currency: target.currency } : {}),
  };
  let written: { id: string; updated_at: Date };
  const who = { actorId: null, actor: `sync:${target.connectionId}` };
  try {
    written = (await (existing
      ? history.update(
          db,
          existing.id,
          {
            ...values,
            // A sub-category belongs to its category: a new category leaves it empty.
            sub_category_id: sql`case when category_id = ${categoryId} then sub_category_id end`,
            updated_at: sql`now()`,
            updated_by: null,
          },
          who,
        )
      : history.insert(db, { ...values, status: item.visible ? "active" : "draft" }, who)
    ).executeTakeFirstOrThrow()) as { id: string; updated_at: Date };
  } catch (error) {
    if (known.atomic) throw error;
    const code = (error as { code?: string }).code;
    report.push(
      skip(
        item,
        code === "23505"
          ? "its SKU was taken in the catalogue meanwhile"
          : "the catalogue refused it (a value out of its rules)",
      ),
    );
    return existing?.id ?? null;
  }
  known.links.push({
    connection_id: target.connectionId,
    product_id: written.id,
    bc_product_id: item.bcProductId,
    bc_variant_id: item.bcVariantId,
    store_modified_at: item.modifiedAt,
    local_updated_at: written.updated_at,
  });
  const row = { id: written.id, sku_code: item.sku, updated_at: written.updated_at, category_id: categoryId };
  known.byId.set(row.id, row);
  known.bySku.set(row.sku_code, row);
  report.push({
    sku: item.sku,
    action,
    reason,
    bcProductId: item.bcProductId,
    bcVariantId: item.bcVariantId,
  });
  return written.id;
}
