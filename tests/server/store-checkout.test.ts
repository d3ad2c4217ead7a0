/**
 * The catalogue viewer's checkout (issue 18) against a loopback BigCommerce store: a visitor's
 * cart is found in the store by SKU and made a store cart whose checkout link is answered; it joins
 * the carts list; only the catalogue's own products, one currency, products the store sells; no
 * store connected is said in words; the store's webhook later makes the cart an order.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "./child-server";
import { type FakeStore, sampleProducts, startFakeBigCommerce } from "./fake-bigcommerce";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { publishedCatalogue } from "./store-fixtures";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

describe.each(DRIVERS)("catalogue checkout on %s", (driver) => {
  let s: TestServer;
  let store: FakeStore;
  let admin: string;
  let pdfId: string;
  const products: Record<string, string> = {};
  const call = (method: string, path: string, body?: unknown, token = admin) =>
    s.api<Any>(method, path, { token, body });
  const checkout = (lines: unknown, ref = pdfId, ip = "198.51.100.1") =>
    s.api<Any>("POST", `/public/pdfs/${ref}/checkout`, {
      body: { lines },
      headers: { "x-forwarded-for": ip },
    });

  beforeAll(async () => {
    store = await startFakeBigCommerce();
    store.products.push(...sampleProducts(10));
    // A SKU holding a comma, which BigCommerce's `sku:in` list would read as two.
    store.products.push({ ...sampleProducts(11)[10], sku: "MUG,LARGE" });
    s = await startServer(driver, { BIGCOMMERCE_API_URL: store.url });
    admin = (await s.signIn()).accessToken;
    const category = (await call("POST", "/api/categories", { name: "Kitchen" })).body;
    for (const [sku, price, currency] of [
      ["BC-00003", 120.5, "INR"],
      ["BC-00005-S", 10, "INR"],
      ["NOT-IN-STORE", 99, "INR"],
      ["DOLLAR-1", 5, "USD"],
      ["ELSEWHERE", 1, "INR"],
      ["MUG-LARGE", 15, "INR"],
    ] as const) {
      const made = await call("POST", "/api/products", {
        sku_code: sku,
        name: `Product ${sku}`,
        price,
        currency,
        category_id: category.id,
        status: "active",
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      products[sku] = made.body.id;
    }
    // The store sync keeps a store's SKU as the store has it, a comma included (a person's
    // form refuses one): the product as synced.
    await sql`update products set sku_code = ${"MUG,LARGE"} where id = ${products["MUG-LARGE"]}`.execute(
      s.database.db,
    );
    products["MUG,LARGE"] = products["MUG-LARGE"];
    // Hotspots for every product but ELSEWHERE, which the catalogue does not show.
    pdfId = await publishedCatalogue(
      s,
      `Checkout ${driver}`,
      `checkout-${driver}`,
      ["BC-00003", "BC-00005-S", "NOT-IN-STORE", "DOLLAR-1", "MUG-LARGE"].map((sku) => products[sku]),
    );
  });

  afterAll(async () => {
    await s?.close();
    await store?.close();
  });

  it("says so in words while no store is connected", async () => {
    const res = await checkout([{ productId: products["BC-00003"], quantity: 1 }]);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      "This catalogue's cart cannot be checked out: no online store is connected",
    );
  });

  it("hands the cart to the store by SKU and answers its checkout link; the cart joins the list", async () => {
    const connected = await call("POST", "/api/store/connections", {
      name: "Main",
      storeHash: store.hash,
      token: store.token,
    });
    expect(connected.status).toBe(201);
    const res = await checkout([
      { productId: products["BC-00003"], quantity: 2 },
      { productId: products["BC-00005-S"], quantity: 1 },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.checkoutUrl).toMatch(/^https:\/\/store\.test\/cart\.php\?action=loadInCheckout&id=/);
    const made = store.carts.at(-1);
    expect(made?.id).toBe(res.body.cartId);
    // The base variant of a simple product, the variant of its own SKU of another.
    expect(made?.line_items).toEqual([
      { product_id: 3, variant_id: 3000, quantity: 2 },
      { product_id: 5, variant_id: 50, quantity: 1 },
    ]);
    const list = (await call("GET", "/api/store/carts")).body;
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({
      source: "catalogue",
      status: "checked_out",
      externalId: res.body.cartId,
      pdfId,
      pdfTitle: `Checkout ${driver}`,
      itemCount: 3,
      checkoutUrl: res.body.checkoutUrl,
      items: [
        { sku: "BC-00003", name: "Product BC-00003", quantity: 2, priceMinor: 12050 },
        { sku: "BC-00005-S", name: "Product BC-00005-S", quantity: 1, priceMinor: 1000 },
      ],
    });
    // The store prices the cart: its amount is the cart's total.
    expect(list.data[0].totalMinor).toBe(Math.round((made?.cart_amount ?? 0) * 100));
  });

  it("finds a SKU holding a comma, asked alone by the exact sku filter", async () => {
    const from = store.log.length;
    const res = await checkout(
      [
        { productId: products["MUG,LARGE"], quantity: 1 },
        { productId: products["BC-00003"], quantity: 1 },
      ],
      pdfId,
      "198.51.100.8",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(store.carts.at(-1)?.line_items).toEqual([
      { product_id: 11, variant_id: 11000, quantity: 1 },
      { product_id: 3, variant_id: 3000, quantity: 1 },
    ]);
    const asked = store.log
      .slice(from)
      .filter((r) => r.path.startsWith(`/stores/${store.hash}/v3/catalog/variants`))
      .map((r) => new URL(r.path, "http://store.test").searchParams);
    expect(asked.map((q) => q.get("sku:in")).filter(Boolean)).toEqual(["BC-00003"]);
    expect(asked.map((q) => q.get("sku")).filter(Boolean)).toEqual(["MUG,LARGE"]);
  });

  it("makes one store cart per viewer cart: a retry with its Idempotency-Key answers the first cart", async () => {
    const before = store.carts.length;
    const lines = [{ productId: products["BC-00005-S"], quantity: 3 }];
    const send = () =>
      s.api<Any>("POST", `/public/pdfs/${pdfId}/checkout`, {
        body: { lines },
        headers: { "x-forwarded-for": "198.51.100.9", "idempotency-key": "viewer-cart-1" },
      });
    const first = await send();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(store.carts.length - before).toBe(1);
  });

  it("refuses what it cannot hand over, saying which line and why, and makes no cart", async () => {
    const before = store.carts.length;
    const notShown = await checkout([{ productId: products.ELSEWHERE, quantity: 1 }]);
    expect(notShown.status).toBe(400);
    expect(notShown.body.details).toEqual([
      { field: "lines.0.productId", message: "Product ID is not a product of this catalogue" },
    ]);
    const twice = await checkout([
      { productId: products["BC-00003"], quantity: 1 },
      { productId: products["BC-00003"], quantity: 2 },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.details[0].field).toBe("lines.1.productId");
    const mixed = await checkout([
      { productId: products["BC-00003"], quantity: 1 },
      { productId: products["DOLLAR-1"], quantity: 1 },
    ]);
    expect(mixed.status).toBe(400);
    expect(mixed.body.message).toMatch(/^A cart is paid in one currency/);
    const missing = await checkout([
      { productId: products["BC-00003"], quantity: 1 },
      { productId: products["NOT-IN-STORE"], quantity: 1 },
    ]);
    expect(missing.status).toBe(409);
    expect(missing.body.message).toBe(
      "The online store does not sell Product NOT-IN-STORE: remove it to check out",
    );
    for (const odd of [
      [],
      [{ productId: "x", quantity: 1 }],
      [{ productId: products["BC-00003"], quantity: 0 }],
      "no",
    ])
      expect((await checkout(odd, pdfId, "198.51.100.2")).status, JSON.stringify(odd)).toBe(400);
    expect(
      (await checkout([{ productId: products["BC-00003"], quantity: 1 }], "no-such-catalogue")).status,
    ).toBe(404);
    expect(store.carts.length).toBe(before);
  });

  it("limits checkouts per address", async () => {
    // Every request here comes from 127.0.0.1: the window starts afresh for this test.
    await s.database.db.deleteFrom("rate_limits").where("key", "like", "store-checkout:%").execute();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await checkout([{ productId: products.ELSEWHERE, quantity: 1 }], pdfId, "198.51.100.9")).status,
      );
    expect(statuses.slice(0, 10), statuses.join()).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("becomes an order when the store says the cart was converted", async () => {
    store.deliverTo = (d) => d.replace("https://atelier.example.test", s.baseUrl);
    await waitFor("webhooks registered", async () => store.hooks.length === 6, 20_000, 50);
    const cartId = (await call("GET", "/api/store/carts")).body.data[0].externalId;
    expect(await store.fire("store/cart/converted", { type: "cart", id: cartId, orderId: 300 })).toEqual([
      200,
    ]);
    const cart = await waitFor(
      "the cart ordered",
      async () => {
        const c = (await call("GET", "/api/store/carts")).body.data[0];
        return c.status === "converted" && c;
      },
      20_000,
      50,
    );
    expect(cart.orderId).toBe("300");
  });
});
