/**
 * Push-back (issue 18): an admin's change of a linked product's price or stock level reaches its
 * store. The `products` resource's rule queues a job in the write's transaction (so only a
 * committed change is pushed, once per product while one is waiting); the job sends
 * `PUT /v3/catalog/products/{id}` or `…/{id}/variants/{variantId}` with `{ price, inventory_level }`
 * and records both sides' times on the link, so the next sync does not take its own push for a
 * change made on both sides.
 *
 * The sync's writes do not come here: they bypass the resource engine (store-catalogue.ts).
 */
import { sql } from "kysely";
import type { AppContext } from "../../context";
import { badRequest } from "../../http/errors";
import type { AnyDb, ResourceRules } from "../../resources/rules";
import { BigCommerceError } from "./bigcommerce";
import type { StoreSyncs } from "./sync.service";

export const PUSH_JOB = "store.push";

interface PushPayload {
  productId: string;
}

/** A value changed: numbers compared as numbers (a money column reads as text), null as null. */
const differs = (a: unknown, b: unknown) =>
  a == null || b == null ? (a ?? null) !== (b ?? null) : Number(a) !== Number(b);

/** A "Variant of" that would make a variant of a variant, or of the product itself. */
async function variantProblem(db: AnyDb, id: string | null, parentId: string): Promise<string | null> {
  if (parentId === id) return "A product cannot be a variant of itself";
  const parent = await db
    .selectFrom("products")
    .select("parent_id")
    .where("id", "=", parentId)
    .executeTakeFirst();
  if (parent?.parent_id)
    return "The product chosen is a variant itself: choose the product it is a variant of";
  if (!id) return null;
  const child = await db
    .selectFrom("products")
    .select("id")
    .where("parent_id", "=", id)
    .limit(1)
    .executeTakeFirst();
  return child ? "This product has variants of its own, so it cannot be a variant" : null;
}

/**
 * The `products` rules. Variants are one level deep, as a store's are ("Variant of" names a
 * product that is not a variant, and not one with variants of its own). A linked product whose
 * price or stock level changed is pushed to its store.
 */
export const productStoreRules: ResourceRules = {
  // beforeWrite reads "Variant of"; afterWrite acts on an update of price or stock level, and
  // only for a product linked to a store (most are not).
  quiet(mode, fields) {
    if (fields.includes("parent_id")) return false;
    if (mode === "create" || !fields.some((f) => f === "price" || f === "stock_level")) return true;
    // `offset 0` keeps the subquery a subplan run for the one row updated: a plain `not exists`
    // becomes an anti-join the planner plans on every update, and PGlite (no prepared
    // statements) paid that on each one.
    return sql<boolean>`not exists (select 1 from store_product_links as l where l.product_id = products.id offset 0)`;
  },
  async beforeWrite({ db, existing, values }) {
    const parentId = values.parent_id;
    if (typeof parentId !== "string") return;
    const problem = await variantProblem(db, existing ? String(existing.id) : null, parentId);
    if (problem) throw badRequest(problem, [{ field: "parent_id", message: problem }]);
  },
  async afterWrite({ db, existing, row, app }) {
    if (!existing) return;
    if (!differs(existing.price, row.price) && !differs(existing.stock_level, row.stock_level)) return;
    const linked = await db
      .selectFrom("store_product_links")
      .select("product_id")
      .where("product_id", "=", String(row.id))
      .limit(1)
      .executeTakeFirst();
    if (!linked) return;
    await app.jobs.enqueue<PushPayload>(
      PUSH_JOB,
      { productId: String(row.id) },
      { db: db as never, key: String(row.id), maxAttempts: 5 },
    );
  },
};

/** Sends a product's price and stock level to every store it is linked to. */
export async function pushProduct(ctx: AppContext, syncs: StoreSyncs, productId: string): Promise<number> {
  // products is an engine table, not in the typed Database.
  const product: { price: string | number; stock_level: number | null; updated_at: Date } | undefined =
    await (ctx.db as unknown as AnyDb)
      .selectFrom("products")
      .select(["price", "stock_level", "updated_at"])
      .where("id", "=", productId)
      .executeTakeFirst();
  if (!product) return 0;
  const links = await ctx.db
    .selectFrom("store_product_links")
    .selectAll()
    .where("product_id", "=", productId)
    .execute();
  const changes = {
    price: Number(product.price),
    ...(product.stock_level === null ? {} : { inventory_level: product.stock_level }),
  };
  let pushed = 0;
  for (const link of links) {
    const client = await syncs.client(link.connection_id);
    let modified: Date;
    try {
      if (link.bc_variant_id === null) {
        const answer = await client.updateProduct(link.bc_product_id, changes);
        const at = new Date(answer?.date_modified ?? "");
        modified = Number.isNaN(at.getTime()) ? new Date() : at;
      } else {
        await client.updateVariant(link.bc_product_id, link.bc_variant_id, changes);
        // A variant answers no date: the store changed now, as far as the next sync is concerned.
        modified = new Date();
      }
    } catch (error) {
      // The store will not take it (gone, refused): trying again will not change that.
      if (error instanceof BigCommerceError && !error.retryable) {
        ctx.log.warn(
          { productId, connectionId: link.connection_id, status: error.status },
          "store push-back refused",
        );
        continue;
      }
      throw error;
    }
    await ctx.db
      .updateTable("store_product_links")
      .set({ store_modified_at: modified, local_updated_at: product.updated_at, synced_at: sql`now()` })
      .where("connection_id", "=", link.connection_id)
      .where("product_id", "=", productId)
      .execute();
    pushed++;
  }
  return pushed;
}

export function registerPushJob(ctx: AppContext, syncs: StoreSyncs): void {
  ctx.jobs.register<PushPayload>(PUSH_JOB, async ({ payload }) => {
    await pushProduct(ctx, syncs, payload.productId);
  });
}
