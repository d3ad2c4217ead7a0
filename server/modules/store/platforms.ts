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
  /**
   * Registers (or brings up to date) the store's webhooks for these events at `destination`,
   * each callback carrying `headers`; hooks of other destinations are left alone.
   */
  registerWebhooks(access: StoreAccess, destination: string, headers: Record<string, string>): Promise<void>;
  /** What a webhook's callback body tells, or null for one this build does not act on. */
  readCallback(body: unknown): StoreEvent | null;
  /** A cart as the store has it now, or null when it has none by this id. */
  cart(access: StoreAccess, id: string): Promise<PlatformCart | null>;
  /** The store's item of each SKU it has (product and variant ids); SKUs it lacks are absent. */
  itemsBySku(access: StoreAccess, skus: readonly string[]): Promise<Map<string, StoreItem>>;
  /** A cart of these items (at these unit prices, or the store's); its checkout and cart links. */
  createCart(access: StoreAccess, items: readonly CartLine[], currency: string): Promise<StoreCart>;
}

/** A product (or one of its variants) of the store. */
export interface StoreItem {
  productId: number;
  variantId: number | null;
}

export interface CartLine extends StoreItem {
  quantity: number;
  /** The unit price to charge (a proposal's discounted price), major units; the store's when absent. */
  unitPrice?: number;
}

export interface StoreCart {
  id: string;
  checkoutUrl: string;
  cartUrl: string | null;
  /** The cart's amount as the store states it. */
  amount: number;
  currency: string;
}

/** The events the store acts on, whatever the platform calls them. */
export type StoreEvent =
  | { kind: "cart-abandoned"; cartId: string }
  | { kind: "cart-converted"; cartId: string; orderId: string }
  | { kind: "product-changed"; productId: number }
  | { kind: "product-deleted"; productId: number };

export interface PlatformCart {
  id: string;
  email: string | null;
  customerName: string | null;
  currency: string;
  /** The cart's amount as the store states it, in its currency's units. */
  amount: number;
  items: { sku: string; name: string; quantity: number; price: number }[];
  updatedAt: string;
}

/** BigCommerce's webhook scopes for the events above. */
export const BIGCOMMERCE_SCOPES = [
  "store/cart/abandoned",
  "store/cart/converted",
  "store/product/created",
  "store/product/updated",
  "store/product/deleted",
  "store/product/inventory/updated",
] as const;

/** A callback's body as BigCommerce posts it (docs/store-api.md "Webhooks"), read defensively. */
export function readBigCommerceCallback(body: unknown): StoreEvent | null {
  if (typeof body !== "object" || body === null) return null;
  const { scope, data } = body as { scope?: unknown; data?: unknown };
  if (typeof scope !== "string" || typeof data !== "object" || data === null) return null;
  const { id, orderId } = data as { id?: unknown; orderId?: unknown };
  const text = typeof id === "string" || typeof id === "number" ? String(id).slice(0, 100) : "";
  if (!text) return null;
  const productId = Number(text);
  switch (scope) {
    case "store/cart/abandoned":
      return { kind: "cart-abandoned", cartId: text };
    case "store/cart/converted":
      return typeof orderId === "string" || typeof orderId === "number"
        ? { kind: "cart-converted", cartId: text, orderId: String(orderId).slice(0, 40) }
        : null;
    case "store/product/created":
    case "store/product/updated":
    case "store/product/inventory/updated":
      return Number.isSafeInteger(productId) && productId > 0 ? { kind: "product-changed", productId } : null;
    case "store/product/deleted":
      return Number.isSafeInteger(productId) && productId > 0 ? { kind: "product-deleted", productId } : null;
    default:
      return null;
  }
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
  // Background work (webhooks, carts) waits out the rate limit as a sync does.
  const worker = (access: StoreAccess) =>
    bigCommerce({ ...access, apiUrl: config.bigcommerceApiUrl, allowPrivate: true, timeoutMs: 30_000 });
  return {
    id: BIGCOMMERCE,
    name: "BigCommerce",
    async registerWebhooks(access, destination, headers) {
      const api = worker(access);
      const mine = new Map(
        (await api.hooks()).filter((h) => h.destination === destination).map((h) => [h.scope, h]),
      );
      for (const scope of BIGCOMMERCE_SCOPES) {
        const hook = mine.get(scope);
        if (!hook) await api.createHook({ scope, destination, is_active: true, headers });
        // Brought up to date: reactivated (BigCommerce turns off a hook that kept failing), new secret.
        else await api.updateHook(hook.id, { destination, is_active: true, headers });
      }
    },
    readCallback: readBigCommerceCallback,
    async cart(access, id) {
      const api = worker(access);
      const cart = await api.cart(id);
      if (!cart) return null;
      const customer = cart.customer_id > 0 ? ((await api.customers([cart.customer_id]))[0] ?? null) : null;
      const name = customer ? `${customer.first_name} ${customer.last_name}`.trim() : "";
      const lines = [...(cart.line_items?.physical_items ?? []), ...(cart.line_items?.digital_items ?? [])];
      return {
        id: cart.id,
        email: cart.email || customer?.email || null,
        customerName: name || null,
        currency: cart.currency?.code ?? "INR",
        amount: cart.cart_amount,
        items: lines.map((l) => ({ sku: l.sku, name: l.name, quantity: l.quantity, price: l.sale_price })),
        updatedAt: cart.updated_time,
      };
    },
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
            ...(i.unitPrice === undefined ? {} : { list_price: i.unitPrice }),
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
        currency: cart.currency?.code ?? currency,
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
