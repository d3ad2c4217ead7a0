/**
 * The BigCommerce connector (server/modules/store/bigcommerce.ts) against a loopback store that
 * follows the published v3 shapes (fake-bigcommerce.ts): pagination through meta.pagination,
 * the rate limit's headers and 429 waited out (never a failed read), the token refused in
 * words, a cart with its redirect URLs.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BigCommerceError, bigCommerce } from "../../server/modules/store/bigcommerce";
import { type FakeStore, sampleProducts, startFakeBigCommerce } from "./fake-bigcommerce";

let store: FakeStore | null = null;
afterEach(async () => {
  await store?.close();
  store = null;
});

const clientOf = (s: FakeStore, extra: Partial<Parameters<typeof bigCommerce>[0]> = {}) =>
  bigCommerce({ storeHash: s.hash, token: s.token, apiUrl: s.url, allowPrivate: true, ...extra });

async function all<T>(pages: AsyncIterable<{ data: T[] }>): Promise<T[]> {
  const items: T[] = [];
  for await (const p of pages) items.push(...p.data);
  return items;
}

describe("BigCommerce connector", () => {
  it("reads every product page by page, with its variants, and the categories", async () => {
    store = await startFakeBigCommerce();
    store.products = sampleProducts(1000);
    const bc = clientOf(store);
    const products = await all(bc.products());
    expect(products).toHaveLength(1000);
    expect(new Set(products.map((p) => p.sku)).size).toBe(1000);
    expect(products[4].variants?.map((v) => v.sku)).toEqual(["BC-00005-S", "BC-00005-L"]);
    const reads = store.log.filter((l) => l.path.startsWith(`/stores/${store?.hash}/v3/catalog/products`));
    expect(reads.map((l) => new URL(l.path, "http://x").searchParams.get("page"))).toEqual([
      "1",
      "2",
      "3",
      "4",
    ]);
    expect(reads.every((l) => l.path.includes("include=variants") && l.path.includes("limit=250"))).toBe(
      true,
    );
    expect((await all(bc.categories())).map((c) => c.name)).toEqual(["Shop all", "Kitchen", "Garden"]);
    expect(await bc.store()).toMatchObject({ name: "Test store", currency: "INR" });
  });

  it("waits out the rate limit instead of failing: pauses when no request is left, and after a 429", async () => {
    // A window far longer than the test: only the connector's wait ends it (the sleep below), so
    // a busy machine cannot let a window pass unseen and turn the expected 429 into a 200.
    const fake = await startFakeBigCommerce({ quota: 3, windowMs: 600_000 });
    store = fake;
    fake.products = sampleProducts(1000);
    // Another app spends the store's quota first: the connector's first call meets a 429.
    for (let i = 0; i < 3; i++)
      await fetch(`${fake.url}/stores/${fake.hash}/v2/store`, { headers: { "x-auth-token": fake.token } });
    const waits: number[] = [];
    const bc = clientOf(fake, {
      sleep: async (ms) => {
        waits.push(ms);
        fake.resetWindow();
      },
    });
    const products = await all(bc.products(100));
    expect(products).toHaveLength(1000);
    const mine = store.log.slice(3);
    const limited = mine.filter((l) => l.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(mine.filter((l) => l.status === 200)).toHaveLength(10);
    // It waited for the window's reset each time the quota ran out, rather than hammering.
    // Once after the 429, then after every third call spent the quota (requests left 0).
    expect(waits).toHaveLength(4);
    expect(limited).toHaveLength(1);
    for (const ms of waits) expect(ms).toBeGreaterThan(0);
  });

  it("says in words when the token is refused, and that trying again will not help", async () => {
    store = await startFakeBigCommerce();
    const bc = clientOf(store, { token: "wrong" });
    const error = await bc.store().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BigCommerceError);
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect((error as Error).message).toMatch(/refused the API token.*Unauthorized.*store hash/);
  });

  it("refuses a private address unless configuration allows it", async () => {
    store = await startFakeBigCommerce();
    const error = await clientOf(store, { allowPrivate: false })
      .store()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, retryable: false });
    expect(store.log).toEqual([]);
  });

  it("makes a cart at the given prices and answers its checkout link", async () => {
    store = await startFakeBigCommerce();
    store.products = sampleProducts(3);
    const cart = await clientOf(store).createCart(
      [
        { product_id: 1, quantity: 2, list_price: 5.5 },
        { product_id: 3, quantity: 1 },
      ],
      "INR",
    );
    expect(cart.redirect_urls?.checkout_url).toMatch(
      /^https:\/\/store\.test\/cart\.php\?action=loadInCheckout&id=/,
    );
    expect(store.carts[0].line_items).toEqual([
      { product_id: 1, quantity: 2, list_price: 5.5 },
      { product_id: 3, quantity: 1 },
    ]);
    const refused = await clientOf(store)
      .createCart([{ product_id: 99, quantity: 1 }])
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 422, retryable: false });
    expect((refused as Error).message).toContain("line_items: unknown or no products");
  });
});
