/**
 * A BigCommerce store on 127.0.0.1 for the online store's tests (issue 18), small and faithful to
 * the published v3 shapes of the endpoints the product calls (docs/store-api.md):
 * `GET /stores/{hash}/v2/store`, `GET …/v3/catalog/products?include=variants&page&limit`,
 * `GET …/v3/catalog/categories`, `POST …/v3/carts?include=redirect_urls`, `GET …/v3/carts/{id}`,
 * `GET …/v3/customers?id:in=`, `GET|POST …/v3/hooks`, `PUT …/v3/hooks/{id}`; `fire()` delivers a
 * webhook callback as BigCommerce does (the hook's custom headers, no signature); for the sync,
 * `GET …/v3/catalog/products/{id}` and `PUT` of a product or a variant (price, inventory_level). Every call needs the
 * `GET …/v3/catalog/categories`, `GET …/v3/catalog/variants?sku:in=…` (proposals' carts),
 * `POST …/v3/carts?include=redirect_urls`. Every call needs the
 * store's `X-Auth-Token` (401 otherwise; an unknown store hash is a 404). Lists answer `{ data, meta: { pagination } }`.
 *
 * The rate limit works as BigCommerce's: a quota of requests per window; each answer carries
 * `X-Rate-Limit-Requests-Quota`, `-Requests-Left`, `-Time-Window-Ms` and `-Time-Reset-Ms`, and a
 * request past the quota gets 429 with the same headers.
 */
import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type {
  BcCart,
  BcCartLine,
  BcCategory,
  BcCustomer,
  BcHook,
  BcHookCallback,
  BcProduct,
  BcStoreCart,
  BcVariant,
} from "../../server/modules/store/bigcommerce";

export interface FakeStoreOptions {
  hash?: string;
  token?: string;
  /** More stores on the same origin: hash → token (each answers its own profile). */
  otherStores?: Record<string, string>;
  /** Port to listen on (default: any free one). */
  port?: number;
  /** Requests per window (default: no limit). */
  quota?: number;
  windowMs?: number;
  /** How long a page of the product list takes to answer, ms (a big catalogue far away; default 0). */
  productsLatencyMs?: number;
}

export interface FakeStore {
  url: string;
  hash: string;
  token: string;
  products: BcProduct[];
  categories: BcCategory[];
  carts: (BcCart & { line_items: BcCartLine[] })[];
  /** Carts shoppers made on the storefront (as `GET /v3/carts/{id}` answers them). */
  storefrontCarts: BcStoreCart[];
  customers: BcCustomer[];
  /** Webhooks registered through `/v3/hooks`. */
  hooks: BcHook[];
  /**
   * Fires a webhook as BigCommerce does: POSTs the callback to every active hook of this scope,
   * with the headers the hook was registered with; answers the statuses the receivers gave.
   */
  /** `createdAt` (seconds): a later event of the same cart, as the store sends it (another hash). */
  fire(scope: string, data: BcHookCallback["data"], createdAt?: number): Promise<number[]>;
  /** Where a hook's destination is reached (a test maps the server's PUBLIC_URL to its port). */
  deliverTo: (destination: string) => string;
  /** Called with each request's method and path before the rate limit counts it (store sync tests). */
  beforeRequest?: (method: string, path: string) => void;
  /** Spends the rest of this window's quota, as another app of the store would: the next call is a 429. */
  spendQuota(): void;
  /** Starts a new window with the whole quota, as the window's end would: a test's stand-in for time passing. */
  resetWindow(): void;
  /** Every request: method, path with query, and the answer's status. */
  log: { method: string; path: string; status: number; at: number }[];
  close(): Promise<void>;
}

const MAX_LIMIT = 250;

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function page<T>(items: T[], url: URL) {
  const limit = Math.min(Math.max(Number(url.searchParams.get("limit") ?? 50), 1), MAX_LIMIT);
  const current = Math.max(Number(url.searchParams.get("page") ?? 1), 1);
  const data = items.slice((current - 1) * limit, current * limit);
  const totalPages = Math.ceil(items.length / limit);
  const link = (p: number) => `?page=${p}&limit=${limit}`;
  return {
    data,
    meta: {
      pagination: {
        total: items.length,
        count: data.length,
        per_page: limit,
        current_page: current,
        total_pages: totalPages,
        links: {
          ...(current > 1 ? { previous: link(current - 1) } : {}),
          current: link(current),
          ...(current < totalPages ? { next: link(current + 1) } : {}),
        },
      },
    },
  };
}

/** Products as a store has them: `n` simple ones, every fifth with two variants of their own SKU. */
export function sampleProducts(n: number): BcProduct[] {
  return Array.from({ length: n }, (_, i) => {
    const id = i + 1;
    const sku = `BC-${String(id).padStart(5, "0")}`;
    const withVariants = id % 5 === 0;
    return {
      id,
      name: `Store product ${id}`,
      sku,
      type: "physical",
      price: Math.round((id * 7.31) % 5000) / 1 + 0.99,
      sale_price: 0,
      inventory_level: id % 40,
      inventory_tracking: withVariants ? "variant" : "product",
      categories: [1 + (id % 3)],
      is_visible: true,
      date_modified: new Date(Date.UTC(2026, 10, 1, 0, 0, id)).toISOString(),
      variants: withVariants
        ? ["S", "L"].map((size, v) => ({
            id: id * 10 + v,
            product_id: id,
            sku: `${sku}-${size}`,
            price: null,
            calculated_price: 10 + v,
            inventory_level: 3 + v,
            option_values: [{ label: size, option_display_name: "Size" }],
          }))
        : [],
    };
  });
}

/**
 * A product's variants as `GET /v3/catalog/variants` lists them: its own, or — a product without
 * options — its base variant, which carries the product's SKU (id: the product's × 1000).
 */
export function variantsOf(p: BcProduct): BcVariant[] {
  if (p.variants?.length) return p.variants;
  return [
    {
      id: p.id * 1000,
      product_id: p.id,
      sku: p.sku,
      price: p.price,
      calculated_price: p.price,
      inventory_level: p.inventory_level,
      option_values: [],
    },
  ];
}

export async function startFakeBigCommerce(options: FakeStoreOptions = {}): Promise<FakeStore> {
  const hash = options.hash ?? "abc123";
  const token = options.token ?? "token-of-the-test-store";
  const windowMs = options.windowMs ?? 1000;
  let windowStart = Date.now();
  let used = 0;
  const store: FakeStore = {
    url: "",
    hash,
    token,
    products: [],
    categories: [
      { id: 1, parent_id: 0, name: "Shop all", is_visible: true },
      { id: 2, parent_id: 1, name: "Kitchen", is_visible: true },
      { id: 3, parent_id: 1, name: "Garden", is_visible: true },
    ],
    carts: [],
    storefrontCarts: [],
    customers: [],
    hooks: [],
    deliverTo: (destination) => destination,
    log: [],
    spendQuota: () => {
      windowStart = Date.now();
      used = options.quota ?? 0;
    },
    resetWindow: () => {
      windowStart = Date.now();
      used = 0;
    },
    close: async () => {},
    async fire(scope, data, createdAt = 1_700_000_000) {
      const statuses: number[] = [];
      for (const hook of store.hooks.filter((h) => h.is_active && h.scope === scope)) {
        const body = {
          scope,
          store_id: "1025646",
          producer: `stores/${hash}`,
          data,
          created_at: createdAt,
        };
        const res = await fetch(store.deliverTo(hook.destination), {
          method: "POST",
          headers: { "content-type": "application/json", ...(hook.headers ?? {}) },
          body: JSON.stringify({
            ...body,
            hash: createHash("sha1").update(JSON.stringify(body)).digest("hex"),
          }),
        });
        statuses.push(res.status);
      }
      return statuses;
    },
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://store.test");
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        store.log.push({ method: req.method ?? "", path: url.pathname + url.search, status, at: Date.now() });
        json(res, status, body, headers);
      };
      store.beforeRequest?.(req.method ?? "", url.pathname + url.search);
      const now = Date.now();
      if (now - windowStart >= windowMs) {
        windowStart = now;
        used = 0;
      }
      const limits: Record<string, string> = {};
      if (options.quota) {
        const reset = String(Math.max(windowStart + windowMs - now, 0));
        Object.assign(limits, {
          "x-rate-limit-requests-quota": String(options.quota),
          "x-rate-limit-time-window-ms": String(windowMs),
          "x-rate-limit-time-reset-ms": reset,
        });
        if (used >= options.quota) {
          limits["x-rate-limit-requests-left"] = "0";
          return answer(429, { status: 429, title: "Too many requests" }, limits);
        }
        used++;
        limits["x-rate-limit-requests-left"] = String(options.quota - used);
      }
      // The e2e runs drive the stand-in from outside its process: a shopper's cart, a webhook.
      if (req.method === "POST" && url.pathname === "/__control/storefront-carts") {
        const given = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as {
          cart: BcStoreCart;
          customer?: BcCustomer;
        };
        store.storefrontCarts.push(given.cart);
        if (given.customer) store.customers.push(given.customer);
        return answer(201, { ok: true });
      }
      if (req.method === "POST" && url.pathname === "/__control/fire") {
        const given = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as {
          scope: string;
          data: BcHookCallback["data"];
        };
        void store.fire(given.scope, given.data).then(
          (statuses) => answer(200, { statuses }),
          (error: Error) => answer(502, { error: error.message }),
        );
        return;
      }
      const asked = /^\/stores\/([^/]+)(\/.*)$/.exec(url.pathname);
      const askedHash = asked?.[1] ?? "";
      const tokenOf = askedHash === hash ? store.token : options.otherStores?.[askedHash];
      if (!asked || tokenOf === undefined)
        return answer(404, { status: 404, title: "Store not found" }, limits);
      if (req.headers["x-auth-token"] !== tokenOf)
        return answer(401, { status: 401, title: "Unauthorized", type: "about:blank" }, limits);
      const route = `${req.method} ${asked[2]}`;
      if (route === "GET /v2/store") {
        const name = askedHash === hash ? "Test store" : `Store ${askedHash}`;
        return answer(200, { id: askedHash, name, domain: "store.test", currency: "INR" }, limits);
      }
      if (route === "GET /v3/catalog/products") {
        const withVariants = (url.searchParams.get("include") ?? "").split(",").includes("variants");
        const items = store.products.map((p) => (withVariants ? p : { ...p, variants: undefined }));
        const body = page(items, url);
        if (options.productsLatencyMs)
          return void setTimeout(() => answer(200, body, limits), options.productsLatencyMs);
        return answer(200, body, limits);
      }
      if (route === "GET /v3/catalog/categories") return answer(200, page(store.categories, url), limits);
      // Webhooks, carts as the storefront has them, customers: what the webhooks need.
      const bodyOf = <T>(): T | null => {
        try {
          return JSON.parse(Buffer.concat(chunks).toString("utf8")) as T;
        } catch {
          return null;
        }
      };
      if (route === "GET /v3/hooks") return answer(200, page(store.hooks, url), limits);
      if (route === "POST /v3/hooks") {
        const hook = bodyOf<Omit<BcHook, "id">>();
        if (!hook?.scope || !hook.destination)
          return answer(
            422,
            { status: 422, title: "Input is invalid", errors: { scope: "required" } },
            limits,
          );
        const made = { ...hook, id: store.hooks.length + 1, is_active: hook.is_active ?? true };
        store.hooks.push(made);
        return answer(200, { data: made, meta: {} }, limits);
      }
      const hookPut = /^PUT \/v3\/hooks\/(\d+)$/.exec(route);
      if (hookPut) {
        const hook = store.hooks.find((h) => h.id === Number(hookPut[1]));
        if (!hook) return answer(404, { status: 404, title: "Webhook not found" }, limits);
        Object.assign(hook, bodyOf<Partial<BcHook>>() ?? {});
        return answer(200, { data: hook, meta: {} }, limits);
      }
      const cartGet = /^GET \/v3\/carts\/([^/]+)$/.exec(route);
      if (cartGet) {
        const cart = store.storefrontCarts.find((c) => c.id === decodeURIComponent(cartGet[1]));
        if (!cart) return answer(404, { status: 404, title: "Cart not found" }, limits);
        return answer(200, { data: cart, meta: {} }, limits);
      }
      if (route === "GET /v3/customers") {
        const ids = (url.searchParams.get("id:in") ?? "").split(",").map(Number);
        return answer(
          200,
          page(
            store.customers.filter((c) => ids.includes(c.id)),
            url,
          ),
          limits,
        );
      }
      // Store sync: one product, and the push-back's PUT of a product or a variant (`{ data, meta }`).
      const one = /^\/v3\/catalog\/products\/(\d+)(?:\/variants\/(\d+))?$/.exec(asked[2]);
      const product = one ? store.products.find((p) => p.id === Number(one[1])) : undefined;
      const variant = one?.[2] ? product?.variants?.find((v) => v.id === Number(one[2])) : undefined;
      if (one && (!product || (one[2] && !variant)))
        return answer(404, { status: 404, title: "The requested resource was not found" }, limits);
      if (product && req.method === "GET" && !one?.[2])
        return answer(200, { data: product, meta: {} }, limits);
      if (product && req.method === "PUT") {
        let body: { price?: unknown; inventory_level?: unknown };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          return answer(400, { status: 400, title: "Input is invalid" }, limits);
        }
        const bad = Object.entries(body).find(
          ([k, v]) => !["price", "inventory_level"].includes(k) || typeof v !== "number" || v < 0,
        );
        if (bad)
          return answer(
            422,
            { status: 422, title: "JSON data is missing or invalid", errors: { [bad[0]]: "is invalid" } },
            limits,
          );
        const target = variant ?? product;
        Object.assign(target, body);
        product.date_modified = new Date().toISOString().replace(/\.\d{3}Z$/, "+00:00");
        return answer(200, { data: target, meta: {} }, limits);
      }
      // Variants by SKU (`sku:in`, `sku`): proposals' and the catalogue's carts. As published,
      // `sku:in` is a comma list (a SKU holding a comma is split, so not found by it) and `sku`
      // is one SKU matched whole.
      if (route === "GET /v3/catalog/variants") {
        const wanted = [
          ...(url.searchParams.get("sku:in") ?? "").split(","),
          url.searchParams.get("sku") ?? "",
        ].filter(Boolean);
        const all = store.products.flatMap(variantsOf);
        return answer(
          200,
          page(wanted.length ? all.filter((v) => wanted.includes(v.sku)) : all, url),
          limits,
        );
      }
      if (route === "POST /v3/carts") {
        let body: { line_items?: BcCartLine[]; currency?: { code: string } };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          return answer(400, { status: 400, title: "Input is invalid" }, limits);
        }
        const lines = body.line_items ?? [];
        const unknown = lines.find((l) => {
          const product = store.products.find((p) => p.id === l.product_id);
          return (
            !product ||
            (l.variant_id !== undefined && !variantsOf(product).some((v) => v.id === l.variant_id))
          );
        });
        if (!lines.length || unknown)
          return answer(
            422,
            {
              status: 422,
              title: "Missing or invalid data",
              errors: { line_items: "unknown or no products" },
            },
            limits,
          );
        const amount = lines.reduce((sum, l) => {
          const product = store.products.find((p) => p.id === l.product_id) as BcProduct;
          return sum + (l.list_price ?? product.price) * l.quantity;
        }, 0);
        const id = randomUUID();
        const cart = {
          id,
          currency: { code: body.currency?.code ?? "INR" },
          base_amount: amount,
          cart_amount: amount,
          line_items: lines,
          ...(url.searchParams.get("include") === "redirect_urls"
            ? {
                redirect_urls: {
                  cart_url: `https://store.test/cart.php?action=load&id=${id}`,
                  checkout_url: `https://store.test/cart.php?action=loadInCheckout&id=${id}`,
                  embedded_checkout_url: `https://store.test/cart.php?embedded=1&id=${id}`,
                },
              }
            : {}),
        };
        store.carts.push(cart);
        return answer(201, { data: cart, meta: {} }, limits);
      }
      return answer(404, { status: 404, title: "The requested resource was not found" }, limits);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  store.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  store.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return store;
}
