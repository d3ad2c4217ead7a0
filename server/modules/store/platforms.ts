/**
 * Commerce platforms behind one small interface, keyed by the spec's platform id (§9: 13 is
 * BigCommerce): another platform is one more adapter here. The store module asks a platform to
 * check a store's access (the connection test); sync, carts and webhooks join as they are built.
 */
import { BIGCOMMERCE, type PlatformId } from "../../../schemas/store";
import type { Config } from "../../config";
import { type BcCart, BigCommerceError, bigCommerce } from "./bigcommerce";

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
  /** When the cart last changed, ISO; null when the store did not say (or said nonsense). */
  updatedAt: string | null;
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

/** Text from a store's answer, without NUL characters (PostgreSQL text cannot hold them); "" if none. */
function textOf(value: unknown, max: number): string {
  const text =
    typeof value === "string"
      ? value
      : typeof value === "number" && Number.isFinite(value)
        ? String(value)
        : "";
  return text.replaceAll("\u0000", "").trim().slice(0, max);
}

/** A number from a store's answer (a number, or a decimal written as text); 0 for anything else. */
function amountOf(value: unknown): number {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && value.trim()
        ? Number(value)
        : Number.NaN;
  return Number.isFinite(n) ? n : 0;
}

const emailOf = (value: unknown) => (typeof value === "string" ? textOf(value, 254) : "");

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

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
      const cart: unknown = await api.cart(id);
      if (typeof cart !== "object" || cart === null) return null;
      // Read defensively: a store's answer may lack fields or carry odd ones, and a cart is kept
      // with what it has rather than failing its job again and again.
      const c = cart as Record<string, unknown>;
      const customerId = Number(c.customer_id);
      const customer: Record<string, unknown> | null =
        Number.isSafeInteger(customerId) && customerId > 0
          ? (listOf(await api.customers([customerId])).find(
              (x): x is Record<string, unknown> => typeof x === "object" && x !== null,
            ) ?? null)
          : null;
      const name = [textOf(customer?.first_name, 100), textOf(customer?.last_name, 100)]
        .filter(Boolean)
        .join(" ");
      const lineItems = (typeof c.line_items === "object" && c.line_items) || {};
      const { physical_items, digital_items } = lineItems as Record<string, unknown>;
      const items = [...listOf(physical_items), ...listOf(digital_items)].flatMap((l) => {
        if (typeof l !== "object" || l === null) return [];
        const item = l as Record<string, unknown>;
        // A line is a whole number of something from 1; any other quantity is no line.
        const quantity = amountOf(item.quantity);
        if (!Number.isSafeInteger(quantity) || quantity < 1) return [];
        const price = amountOf(item.sale_price);
        return [{ sku: textOf(item.sku, 200), name: textOf(item.name, 500), quantity, price }];
      });
      const code = (c.currency as { code?: unknown } | null | undefined)?.code;
      const updated = typeof c.updated_time === "string" ? new Date(c.updated_time) : null;
      return {
        id: textOf(c.id, 100) || id,
        // An email is text: a number or an object in its place is none.
        email: emailOf(c.email) || emailOf(customer?.email) || null,
        customerName: name || null,
        currency: typeof code === "string" && /^[A-Za-z]{3}$/.test(code) ? code.toUpperCase() : "INR",
        amount: amountOf(c.cart_amount),
        items,
        updatedAt: updated && !Number.isNaN(updated.getTime()) ? updated.toISOString() : null,
      };
    },
    async itemsBySku(access, skus) {
      const variants = await client(access).variantsBySku(skus).catch(told(access));
      const items = new Map<string, StoreItem>();
      for (const v of listOf(variants)) {
        // A variant the store describes without its ids cannot go in a cart: as good as not sold.
        const { id, product_id, sku } = (v ?? {}) as { id?: unknown; product_id?: unknown; sku?: unknown };
        if (
          typeof sku === "string" &&
          Number.isSafeInteger(id) &&
          Number.isSafeInteger(product_id) &&
          !items.has(sku)
        )
          items.set(sku, { productId: product_id as number, variantId: id as number });
      }
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
      const made = ((typeof cart === "object" && cart) || {}) as Partial<Record<keyof BcCart, unknown>>;
      const cartId = textOf(made.id, 100);
      if (!cartId) throw new StoreProblem("The store answered without the cart it was asked to make", null);
      const links = (made.redirect_urls ?? {}) as { checkout_url?: unknown; cart_url?: unknown };
      const checkoutUrl = textOf(links.checkout_url, 2000);
      // A person is sent there: a web address only (never `javascript:` or the like).
      const web = (url: string) => /^https?:\/\//i.test(url);
      if (!web(checkoutUrl)) throw new StoreProblem("The store made no checkout link for the cart", null);
      const cartUrl = textOf(links.cart_url, 2000);
      const code = (made.currency as { code?: unknown } | undefined)?.code;
      return {
        id: cartId,
        checkoutUrl,
        cartUrl: web(cartUrl) ? cartUrl : null,
        amount: amountOf(made.cart_amount),
        // The cart is in the currency asked for unless the store says otherwise.
        currency: typeof code === "string" && /^[A-Za-z]{3}$/.test(code) ? code.toUpperCase() : currency,
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
          throw new StoreProblem(
            "No BigCommerce store answers to this store hash: copy it from the store's API path, the code after /stores/",
            "storeHash",
          );
        // No answer at all: the network or the API's address, not the hash nor the token.
        if (error.unreachable !== undefined)
          throw new StoreProblem(
            `BigCommerce could not be reached at ${new URL(config.bigcommerceApiUrl).host}: ${error.unreachable}. The store hash and token were not checked: check this server's internet connection and its BigCommerce API address (BIGCOMMERCE_API_URL), then try again`,
            null,
          );
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
