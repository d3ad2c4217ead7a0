/**
 * The store's categories in the catalogue (issue 18): matched by name, made when missing; a
 * product without one goes to "From the store".
 */
import { CURRENCIES } from "../../../schemas/products";
import type { AnyDb } from "../../resources/rules";
import type { BcCategory } from "./bigcommerce";
import type { CatalogueTarget } from "./store-items";

/** A product without a category in the store goes to this one. */
export const STORE_CATEGORY_FALLBACK = "From the store";
const CATEGORY_NAME_MAX = 120;

/** The target of a sync of a store: its categories matched by name (made when missing). */
export async function catalogueTarget(
  db: AnyDb,
  connectionId: string,
  currency: string | null,
  storeCategories: readonly BcCategory[],
): Promise<CatalogueTarget> {
  const names = new Map<number, string>();
  for (const c of storeCategories) {
    const name = String(c.name ?? "")
      .trim()
      .slice(0, CATEGORY_NAME_MAX);
    if (name) names.set(c.id, name);
  }
  const categories = new Map<number, string>();
  const unique = [...new Set(names.values())];
  if (unique.length) {
    await db
      .insertInto("categories")
      .values(unique.map((name) => ({ name })))
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    const rows: { id: string; name: string }[] = await db
      .selectFrom("categories")
      .select(["id", "name"])
      .where("name", "in", unique)
      .execute();
    const byName = new Map(rows.map((r) => [r.name, r.id]));
    for (const [bcId, name] of names) {
      const id = byName.get(name);
      if (id) categories.set(bcId, id);
    }
  }
  const takes = currency !== null && (CURRENCIES as readonly string[]).includes(currency);
  return { connectionId, currency: takes ? currency : null, categories, seen: new Map() };
}

export async function fallbackCategory(db: AnyDb, target: CatalogueTarget): Promise<string> {
  if (target.fallbackCategoryId) return target.fallbackCategoryId;
  await db
    .insertInto("categories")
    .values({ name: STORE_CATEGORY_FALLBACK })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row: { id: string } = await db
    .selectFrom("categories")
    .select("id")
    .where("name", "=", STORE_CATEGORY_FALLBACK)
    .executeTakeFirstOrThrow();
  target.fallbackCategoryId = row.id;
  return row.id;
}
