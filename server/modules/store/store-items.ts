/**
 * A store product as the catalogue reads it (issue 18): the product, and each variant with a
 * SKU of its own, as items; why the catalogue cannot take one (no SKU, a SKU its pattern
 * refuses, a price out of its range, a SKU seen earlier in the sync).
 */
import { PRICE_PLACES, roundMajor } from "../../../schemas/money";
import { productSchema } from "../../../schemas/products";
import type { StoreSyncRow } from "../../../schemas/store-sync";
import type { BcProduct } from "./bigcommerce";

const SKU = productSchema.properties.sku_code;
const SKU_PATTERN = new RegExp(SKU.pattern);
const PRICE = productSchema.properties.price;

/** What a sync of one store keeps between pages. */
export interface CatalogueTarget {
  connectionId: string;
  /** The store's currency, when the catalogue takes it (else products keep theirs). */
  currency: string | null;
  /** The store's category ids → catalogue category ids. */
  categories: Map<number, string>;
  /** The fallback category's id, once made. */
  fallbackCategoryId?: string;
  /** SKUs seen in this sync → the store product that had it first. */
  seen: Map<string, number>;
}

/** One store product or variant, as the catalogue will take it. */
export interface Item {
  sku: string;
  name: string;
  price: number;
  stock: number;
  bcProductId: number;
  bcVariantId: number | null;
  modifiedAt: Date;
  categoryBcId: number | undefined;
  visible: boolean;
}

/**
 * A store's price at the catalogue's two decimals, rounded half up by the money module (a store
 * may keep more: 12.345 → 12.35, where 12.345 * 100 in floating point would give 12.34).
 */
export const catalogueMoney = (price: number): number => roundMajor(price, PRICE_PLACES) ?? Number.NaN;

/** The product and its variants that have a SKU of their own (the base variant is the product). */
export function itemsOf(product: BcProduct): { main: Item; variants: (Item | StoreSyncRow)[] } {
  const modifiedAt = new Date(product.date_modified);
  const main: Item = {
    sku: String(product.sku ?? "").trim(),
    name: String(product.name ?? "").trim(),
    price: Number(product.price),
    stock: Math.max(0, Math.trunc(Number(product.inventory_level) || 0)),
    bcProductId: product.id,
    bcVariantId: null,
    modifiedAt: Number.isNaN(modifiedAt.getTime()) ? new Date() : modifiedAt,
    categoryBcId: product.categories?.[0],
    visible: product.is_visible !== false,
  };
  const variants: (Item | StoreSyncRow)[] = [];
  for (const v of product.variants ?? []) {
    // A product without options has one variant, the product itself: nothing of its own.
    if (!v.option_values?.length) continue;
    const sku = String(v.sku ?? "").trim();
    if (sku === "" || sku === main.sku) {
      variants.push({
        sku,
        action: "skipped",
        reason: sku === "" ? "a variant without a SKU of its own" : "a variant with its product's SKU",
        bcProductId: product.id,
        bcVariantId: v.id,
      });
      continue;
    }
    const options = v.option_values.map((o) => o.label).join(", ");
    variants.push({
      ...main,
      sku,
      name: `${main.name} (${options})`,
      price: Number(v.price ?? v.calculated_price),
      stock: Math.max(0, Math.trunc(Number(v.inventory_level) || 0)),
      bcVariantId: v.id,
    });
  }
  return { main, variants };
}

/** Why the catalogue cannot take this item, or null. */
export function problemOf(item: Item, target: CatalogueTarget): string | null {
  if (item.sku === "") return "no SKU in the store";
  if (item.sku.length > SKU.maxLength || !SKU_PATTERN.test(item.sku))
    return `the SKU is not one the catalogue takes: ${SKU.description.toLowerCase()}, up to ${SKU.maxLength}`;
  const first = target.seen.get(item.sku);
  if (first !== undefined && first !== item.bcProductId)
    return `the same SKU as store product #${first}: only the first is synced`;
  if (first !== undefined) return "the same SKU twice in this store product: only the first is synced";
  if (
    !Number.isFinite(item.price) ||
    item.price < PRICE.minimum ||
    catalogueMoney(item.price) > PRICE.maximum
  )
    return `the price ${item.price} is out of the catalogue's range (0 to 999,999,999.99)`;
  return null;
}

export const skip = (item: Item, reason: string): StoreSyncRow => ({
  sku: item.sku,
  action: "skipped",
  reason,
  bcProductId: item.bcProductId,
  bcVariantId: item.bcVariantId,
});
