/**
 * Commerce platforms behind one small interface, keyed by the spec's platform id (§9: 13 is
 * BigCommerce): another platform is one more adapter here. The store module asks a platform to
 * check a store's access (the connection test); sync, carts and webhooks join as they are built.
 */
import { BIGCOMMERCE, type PlatformId } from "../../../schemas/store";
import type { Config } from "../../config";
import { BigCommerceError, bigCommerce } from "./bigcommerce";

export interface StoreAccess {
  storeHash: string;
  token: string;
}

/** A check that failed: the words for a person, and the field of the form they are about. */
export class StoreProblem extends Error {
  constructor(
    message: string,
    readonly field: "storeHash" | "token" | null,
  ) {
    super(message);
  }
}

export interface CommercePlatform {
  id: PlatformId;
  name: string;
  /** The store as it introduces itself; StoreProblem when it cannot be reached or refuses. */
  check(access: StoreAccess): Promise<{ storeName: string; currency: string }>;
  // --- proposals' carts (issue 18) ---
  /** The store's item of each SKU it has (product and variant ids); SKUs it lacks are absent. */
  itemsBySku(access: StoreAccess, skus: readonly string[]): Promise<Map<string, StoreItem>>;
  /** A cart of these items at these unit prices; its checkout and cart links. */
  createCart(access: StoreAccess, items: readonly CartLine[], currency: string): Promise<StoreCart>;
}

/** A product (or one of its variants) of the store. */
export interface StoreItem {
  productId: number;
  variantId: number | null;
}

export interface CartLine extends StoreItem {
  quantity: number;
  /** The unit price to charge (a proposal's discounted price), major units. */
  unitPrice: number;
}

export interface StoreCart {
  id: string;
  checkoutUrl: string;
  cartUrl: string | null;
  amount: number;
}

function bigCommercePlatform(config: Config): CommercePlatform {
  const client = (access: StoreAccess) =>
    bigCommerce({
      ...access,
      apiUrl: config.bigcommerceApiUrl,
      // The origin is the operator's (BIGCOMMERCE_API_URL), never a user's: the private-address
      // policy guards the addresses users give (webhooks, HTTP steps, calendars). The store hash
      // a user gives is a path segment of it, encoded.
      allowPrivate: true,
      // A person waits on a check: a store out of quota is told, not waited for.
      maxRateLimited: 1,
      maxWaitMs: 5000,
      // Nor held for half a minute by a store that does not answer.
      timeoutMs: 10_000,
    });
  // Carts are made while a person waits, as checks are; a refusal is told in the store's words.
  const told = (access: StoreAccess) => (error: unknown) => {
    if (!(error instanceof BigCommerceError)) throw error;
    throw new StoreProblem(error.message.split(access.token).join("[token]"), null);
  };
  return {
    id: BIGCOMMERCE,
    name: "BigCommerce",
    async itemsBySku(access, skus) {
      const variants = await client(access).variantsBySku(skus).catch(told(access));
      const items = new Map<string, StoreItem>();
      for (const v of variants ?? [])
        if (typeof v?.sku === "string" && !items.has(v.sku))
          items.set(v.sku, { productId: v.product_id, variantId: v.id });
      return items;
    },
    async createCart(access, items, currency) {
      const cart = await client(access)
        .createCart(
          items.map((i) => ({
            product_id: i.productId,
            ...(i.variantId === null ? {} : { variant_id: i.variantId }),
            quantity: i.quantity,
            list_price: i.unitPrice,
          })),
          currency,
        )
        .catch(told(access));
      const checkoutUrl = cart?.redirect_urls?.checkout_url;
      if (!cart || typeof checkoutUrl !== "string")
        throw new StoreProblem("The store made no checkout link for the cart", null);
      return {
        id: cart.id,
        checkoutUrl,
        cartUrl: cart.redirect_urls?.cart_url ?? null,
        amount: cart.cart_amount,
      };
    },
    async check(access) {
      try {
        const store: unknown = await client(access).store();
        const { name, currency } = (store ?? {}) as { name?: unknown; currency?: unknown };
        if (typeof name !== "string" || typeof currency !== "string")
          throw new StoreProblem("The store answered with something that is not a store's profile", null);
        return { storeName: name, currency };
      } catch (error) {
        if (!(error instanceof BigCommerceError)) throw error;
        if (error.status === 401 || error.status === 403)
          throw new StoreProblem(
            "BigCommerce refused this API token: check it, and that its account may read the store",
            "token",
          );
        if (error.status === 404)
          throw new StoreProblem("No BigCommerce store answers to this store hash", "storeHash");
        // The store's own words may quote the token back: never pass it on.
        throw new StoreProblem(error.message.split(access.token).join("[token]"), null);
      }
    },
  };
}

/** The platforms this build speaks, by id. */
export function commercePlatforms(config: Config): ReadonlyMap<PlatformId, CommercePlatform> {
  return new Map([[BIGCOMMERCE, bigCommercePlatform(config)]]);
}
