/**
 * BigCommerce's REST API (issue 18: commerce platform 13), the calls the online store makes:
 * the catalog's products (with variants) and categories, a cart with its redirect URLs, the
 * store's profile for "test connection". Shapes as BigCommerce publishes them (docs/store-api.md).
 *
 * Through the one outbound HTTP client (server/http/outbound.ts: private targets refused unless
 * configuration allows them). Every call authenticates with `X-Auth-Token`. Lists are read page
 * by page through `meta.pagination` (`current_page`, `total_pages`). The rate limit is honoured,
 * never failed on: when `X-Rate-Limit-Requests-Left` reaches 0 the next call waits for
 * `X-Rate-Limit-Time-Reset-Ms`, and a 429 is waited out the same way and tried again.
 */
import { OutboundRefused, type OutboundResponse, outboundCall, unreachableWords } from "../../http/outbound";

export const BIGCOMMERCE_API_URL = "https://api.bigcommerce.com";

export interface BigCommerceOptions {
  storeHash: string;
  token: string;
  /** `https://api.bigcommerce.com` unless a test's loopback store stands in. */
  apiUrl?: string;
  allowPrivate: boolean;
  /** Waits for the rate limit (tests pass one that records). */
  sleep?: (ms: number) => Promise<void>;
  /** Longest single wait for the rate limit, ms (default 60 s; BigCommerce's window is 30 s). */
  maxWaitMs?: number;
  /** Longest wait for one answer, ms (default 30 s). */
  timeoutMs?: number;
  /** 429s in a row before a call gives up (default 20). */
  maxRateLimited?: number;
  signal?: AbortSignal;
}

/** A call BigCommerce answered with an error, or that could not be made. */
export class BigCommerceError extends Error {
  constructor(
    message: string,
    /** The HTTP status, or 0 when no answer came. */
    readonly status: number,
    /** Trying again may work (a timeout, a 5xx); 401/403/404/422 will not. */
    readonly retryable: boolean,
    /** No answer came: why, in words ("no host of that name was found"). */
    readonly unreachable?: string,
  ) {
    super(message);
  }
}

export interface Pagination {
  total: number;
  count: number;
  per_page: number;
  current_page: number;
  total_pages: number;
}

export interface Page<T> {
  data: T[];
  meta: { pagination: Pagination };
}

/** A catalog product, the fields the store reads (v3 `catalog/products?include=variants`). */
export interface BcProduct {
  id: number;
  name: string;
  sku: string;
  type: "physical" | "digital";
  price: number;
  sale_price: number;
  inventory_level: number;
  inventory_tracking: "none" | "product" | "variant";
  categories: number[];
  is_visible: boolean;
  date_modified: string;
  variants?: BcVariant[];
}

export interface BcVariant {
  id: number;
  product_id: number;
  sku: string;
  price: number | null;
  calculated_price: number;
  inventory_level: number;
  option_values: { label: string; option_display_name: string }[];
}

export interface BcCategory {
  id: number;
  parent_id: number;
  name: string;
  is_visible: boolean;
}

export interface BcCartLine {
  product_id: number;
  variant_id?: number;
  quantity: number;
  /** Overrides the item's price (a proposal's discounted unit price), in the cart's currency. */
  list_price?: number;
}

export interface BcCart {
  id: string;
  currency: { code: string };
  base_amount: number;
  cart_amount: number;
  redirect_urls?: { cart_url: string; checkout_url: string; embedded_checkout_url: string };
}

/** A cart as `GET /v3/carts/{id}` answers it: its customer, amounts and lines. */
export interface BcStoreCart extends BcCart {
  customer_id: number;
  email: string;
  created_time: string;
  updated_time: string;
  line_items: {
    physical_items: BcCartItem[];
    digital_items: BcCartItem[];
  };
}

export interface BcCartItem {
  id: string;
  product_id: number;
  variant_id: number;
  sku: string;
  name: string;
  quantity: number;
  list_price: number;
  sale_price: number;
  extended_sale_price: number;
}

/** A customer (`GET /v3/customers?id:in=`), the fields a cart's customer is named by. */
export interface BcCustomer {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
}

/**
 * A webhook (`/v3/hooks`). BigCommerce signs nothing: it sends the `headers` given when the hook
 * was registered with every callback, and the receiver checks them.
 */
export interface BcHook {
  id: number;
  scope: string;
  destination: string;
  is_active: boolean;
  headers: Record<string, string> | null;
}

/** A webhook's callback: which event, about what (`data.id`; `orderId` for a converted cart). */
export interface BcHookCallback {
  scope: string;
  store_id: string;
  producer: string;
  hash: string;
  created_at: number;
  data: { type: string; id: string | number; orderId?: number; cartId?: string };
}

/** `GET /v2/store`: the store's profile (its name and currency: the connection test's answer). */
export interface BcStore {
  id: string;
  name: string;
  domain: string;
  currency: string;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const header = (res: OutboundResponse, name: string): number | null => {
  const value = res.headers[name];
  const n = Number(Array.isArray(value) ? value[0] : value);
  return value === undefined || !Number.isFinite(n) ? null : n;
};

/** BigCommerce's own words for an error answer (`title`, `detail`, per-field `errors`), or its status. */
function errorWords(res: OutboundResponse): string {
  try {
    const body = JSON.parse(res.body) as { title?: unknown; detail?: unknown; errors?: unknown };
    const parts = [body.title, body.detail].filter((p): p is string => typeof p === "string" && p !== "");
    if (body.errors && typeof body.errors === "object")
      parts.push(...Object.entries(body.errors).map(([field, words]) => `${field}: ${String(words)}`));
    if (parts.length) return parts.join(" — ").slice(0, 500);
  } catch {
    // not JSON: the status says it
  }
  return `HTTP ${res.status}`;
}

export function bigCommerce(options: BigCommerceOptions) {
  const apiUrl = (options.apiUrl ?? BIGCOMMERCE_API_URL).replace(/\/+$/, "");
  const base = `${apiUrl}/stores/${encodeURIComponent(options.storeHash)}`;
  const sleep = options.sleep ?? sleepFor;
  const maxWait = options.maxWaitMs ?? 60_000;
  /** When the quota is spent (requests left 0): no call before this time. */
  let pausedUntil = 0;

  async function waitForQuota(): Promise<void> {
    const wait = pausedUntil - Date.now();
    if (wait <= 0) return;
    await sleep(Math.min(wait, maxWait));
    // Waited out: the next answer's headers say whether to pause again.
    pausedUntil = 0;
  }

  /** One call, its rate limit honoured; answers the parsed body. */
  async function call<T>(method: "GET" | "POST" | "PUT", path: string, body?: unknown): Promise<T> {
    for (let limited = 0; ; limited++) {
      if (options.signal?.aborted) throw new BigCommerceError("Stopped", 0, true);
      await waitForQuota();
      let res: OutboundResponse;
      try {
        res = await outboundCall(
          `${base}${path}`,
          {
            method,
            headers: {
              "x-auth-token": options.token,
              accept: "application/json",
              ...(body === undefined ? {} : { "content-type": "application/json" }),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
          },
          {
            allowPrivate: options.allowPrivate,
            timeoutMs: options.timeoutMs ?? 30_000,
            maxBodyBytes: 32 * 1024 * 1024,
          },
        );
      } catch (error) {
        // In words: a system code (ENOTFOUND) is no message for a person, nor for a sync report.
        const words = unreachableWords(error);
        throw new BigCommerceError(
          `The store could not be reached: ${words}`,
          0,
          !(error instanceof OutboundRefused),
          words,
        );
      }
      const left = header(res, "x-rate-limit-requests-left");
      const resetMs = header(res, "x-rate-limit-time-reset-ms");
      if (res.status === 429 || left === 0) pausedUntil = Date.now() + Math.max(resetMs ?? 1000, 0);
      if (res.status === 429) {
        if (limited >= (options.maxRateLimited ?? 20))
          throw new BigCommerceError("The store's rate limit did not let the call through", 429, true);
        continue;
      }
      if (res.status >= 200 && res.status < 300) {
        if (res.status === 204 || res.body === "") return undefined as T;
        try {
          return JSON.parse(res.body) as T;
        } catch {
          throw new BigCommerceError("The store answered with something that is not JSON", res.status, true);
        }
      }
      const words = errorWords(res);
      if (res.status === 401 || res.status === 403)
        throw new BigCommerceError(
          `The store refused the API token (${words}): check the store hash and that the token has the scopes needed`,
          res.status,
          false,
        );
      throw new BigCommerceError(`The store answered ${res.status}: ${words}`, res.status, res.status >= 500);
    }
  }

  /** Every page of a list, in order (`limit` per page, at most 250 as BigCommerce allows). */
  async function* pages<T>(path: string, query: Record<string, string> = {}, limit = 250) {
    for (let page = 1; ; page++) {
      const search = new URLSearchParams({ ...query, page: String(page), limit: String(limit) });
      const answer = await call<Page<T>>("GET", `${path}?${search}`);
      if (!Array.isArray(answer?.data))
        throw new BigCommerceError("The store answered a list without its items", 200, true);
      yield answer;
      const { current_page, total_pages } = answer.meta?.pagination ?? {
        current_page: page,
        total_pages: page,
      };
      if (!answer.data.length || current_page >= total_pages) return;
    }
  }

  return {
    call,
    pages,
    /** The store's profile: the connection test. */
    store: () => call<BcStore>("GET", "/v2/store"),
    products: (limit?: number) => pages<BcProduct>("/v3/catalog/products", { include: "variants" }, limit),
    categories: (limit?: number) => pages<BcCategory>("/v3/catalog/categories", {}, limit),
    /** A cart as the store has it, or null when it has none by this id (deleted, expired). */
    async cart(id: string): Promise<BcStoreCart | null> {
      try {
        const answer = await call<{ data: BcStoreCart }>("GET", `/v3/carts/${encodeURIComponent(id)}`);
        return answer.data;
      } catch (error) {
        if (error instanceof BigCommerceError && error.status === 404) return null;
        throw error;
      }
    },
    /** Customers by id (one page: a cart has one customer). */
    async customers(ids: readonly number[]): Promise<BcCustomer[]> {
      if (!ids.length) return [];
      const search = new URLSearchParams({
        "id:in": ids.join(","),
        limit: String(Math.min(ids.length, 250)),
      });
      const answer = await call<Page<BcCustomer>>("GET", `/v3/customers?${search}`);
      return answer.data;
    },
    /** Every webhook the token's account registered on the store. */
    async hooks(): Promise<BcHook[]> {
      const all: BcHook[] = [];
      for await (const page of pages<BcHook>("/v3/hooks", {}, 250)) all.push(...page.data);
      return all;
    },
    async createHook(hook: Omit<BcHook, "id">): Promise<BcHook> {
      return (await call<{ data: BcHook }>("POST", "/v3/hooks", hook)).data;
    },
    async updateHook(id: number, hook: Partial<Omit<BcHook, "id">>): Promise<BcHook> {
      return (await call<{ data: BcHook }>("PUT", `/v3/hooks/${id}`, hook)).data;
    },
    /**
     * The variants of these SKUs (`GET /v3/catalog/variants?sku:in=…`): a product's own SKU is
     * its base variant's, so both kinds are found. Asked 50 SKUs at a time; SKUs the store
     * lacks are simply absent. `sku:in` is a comma list, so a SKU holding a comma would be read
     * as two: each such SKU is asked alone, by the exact `sku=` filter.
     */
    async variantsBySku(skus: readonly string[]): Promise<BcVariant[]> {
      const found: BcVariant[] = [];
      const unique = [...new Set(skus)].filter((sku) => sku !== "");
      const listable = unique.filter((sku) => !sku.includes(","));
      const filters = [
        ...Array.from({ length: Math.ceil(listable.length / 50) }, (_, n) => ({
          "sku:in": listable.slice(n * 50, n * 50 + 50).join(","),
        })),
        ...unique.filter((sku) => sku.includes(",")).map((sku) => ({ sku })),
      ];
      for (const filter of filters)
        for await (const page of pages<BcVariant>("/v3/catalog/variants", filter)) found.push(...page.data);
      return found;
    },
    /** A cart of these lines, with its checkout link. */
    async createCart(lines: BcCartLine[], currency?: string): Promise<BcCart> {
      const answer = await call<{ data: BcCart }>("POST", "/v3/carts?include=redirect_urls", {
        line_items: lines,
        ...(currency ? { currency: { code: currency } } : {}),
      });
      return answer.data;
    },
    // Store sync (issue 18): one product read again (a webhook's resync), and the push-back of a
    // catalogue change of price or stock.
    /** `GET /v3/catalog/products/{id}?include=variants`. */
    async product(id: number): Promise<BcProduct> {
      const answer = await call<{ data: BcProduct }>("GET", `/v3/catalog/products/${id}?include=variants`);
      return answer.data;
    },
    /** `PUT /v3/catalog/products/{id}`: answers the product as stored (its `date_modified`). */
    async updateProduct(id: number, changes: BcStockAndPrice): Promise<BcProduct> {
      const answer = await call<{ data: BcProduct }>("PUT", `/v3/catalog/products/${id}`, changes);
      return answer.data;
    },
    /** `PUT /v3/catalog/products/{productId}/variants/{variantId}`. */
    async updateVariant(productId: number, variantId: number, changes: BcStockAndPrice): Promise<BcVariant> {
      const answer = await call<{ data: BcVariant }>(
        "PUT",
        `/v3/catalog/products/${productId}/variants/${variantId}`,
        changes,
      );
      return answer.data;
    },
  };
}

/** What a push-back changes of a product or variant. */
export interface BcStockAndPrice {
  price: number;
  inventory_level?: number;
}

export type BigCommerceClient = ReturnType<typeof bigCommerce>;
