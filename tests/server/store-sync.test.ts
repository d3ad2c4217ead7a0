/**
 * The store sync (issue 18) against a loopback BigCommerce store (fake-bigcommerce.ts): 1,000
 * store products into the catalogue by SKU with a report of what was skipped and why, a 429
 * mid-sync waited out, variants as linked child products, a change on both sides (the store
 * wins, and says so), push-back of price and stock (and never of the sync's own writes), the
 * webhook's resync of one product, the store product list, and the Online store module on every
 * route.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFLICT_REASON } from "../../schemas/store-sync";
import { upsertStoreProduct } from "../../server/modules/store";
import { type FakeStore, sampleProducts, startFakeBigCommerce } from "./fake-bigcommerce";
import { DRIVERS, signedInMember, sleep, startServer, type TestServer } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;
type ReportRow = {
  sku: string;
  action: string;
  reason: string;
  bcProductId: number;
  bcVariantId: number | null;
};

describe.each(DRIVERS)("store sync on %s", (driver) => {
  let s: TestServer;
  let store: FakeStore;
  let admin: string;
  let connectionId: string;

  beforeAll(async () => {
    store = await startFakeBigCommerce({ quota: 100, windowMs: 1000 });
    store.products = sampleProducts(1000);
    const p = (id: number) => store.products[id - 1];
    p(7).sku = "BC-00003"; // the same SKU as product 3
    p(11).sku = "";
    p(12).sku = "bad sku!";
    p(13).price = 1e12;
    p(14).categories = [];
    p(16).name = "Nul\u0000name"; // text PostgreSQL refuses: its page is written again product by product
    s = await startServer(driver, { BIGCOMMERCE_API_URL: store.url });
    admin = (await s.signIn()).accessToken;
  });

  afterAll(async () => {
    await s?.close();
    await store?.close();
  });

  const call = (method: string, path: string, body?: unknown, token = admin) =>
    s.api<Any>(method, path, { token, body });

  async function finished(id: string): Promise<Any> {
    for (let i = 0; i < 600; i++) {
      const sync = (await call("GET", `/api/store/sync/${id}`)).body;
      if (sync.status === "finished" || sync.status === "failed") return sync;
      await sleep(100);
    }
    throw new Error("the sync did not end");
  }

  const productBySku = (sku: string) =>
    // biome-ignore lint/suspicious/noExplicitAny: products is an engine table.
    (s.ctx.db as any).selectFrom("products").selectAll().where("sku_code", "=", sku).executeTakeFirst();

  it("refuses bad input per field, and a sync with no store connected", async () => {
    const none = await call("POST", "/api/store/sync", {});
    expect(none.status).toBe(400);
    expect(none.body.details).toEqual([
      { field: "connectionId", message: "Connection ID is needed: no store is connected yet" },
    ]);
    const notUuid = await call("POST", "/api/store/sync", { connectionId: "nope" });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.details.map((d: { field: string }) => d.field)).toEqual(["connectionId"]);
    const unknown = await call("POST", "/api/store/sync", {
      connectionId: "00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([
      { field: "connectionId", message: "Connection ID is not a connected store" },
    ]);
    expect((await call("POST", "/api/store/sync", { extra: 1 })).status).toBe(400);
    expect((await call("GET", "/api/store/sync/not-a-uuid")).status).toBe(400);
    expect((await call("GET", "/api/store/sync/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await call("GET", "/api/store/products?pageSize=0")).status).toBe(400);
    expect((await call("GET", "/api/store/products?sort=token")).status).toBe(400);
    expect((await call("GET", "/api/store/products?filters=%7Bnot-json")).status).toBe(400);
  });

  it("syncs 1,000 store products by SKU, reports what it skipped and why, and waits out a 429", async () => {
    const made = await call("POST", "/api/store/connections", {
      name: "Main",
      storeHash: store.hash,
      token: store.token,
    });
    connectionId = made.body.id;
    // A catalogue product with a store SKU, never linked: linked and updated.
    const category = await call("POST", "/api/categories", { name: "Local things" });
    const local = await call("POST", "/api/products", {
      sku_code: "BC-00020",
      name: "Made here",
      price: 1,
      category_id: category.body.id,
    });
    expect(local.status).toBe(201);
    // Another app of the store spends its quota as the second page is asked for.
    let spent = false;
    store.beforeRequest = (_method, path) => {
      if (!spent && path.includes("/v3/catalog/products?") && path.includes("page=2")) {
        spent = true;
        store.spendQuota();
      }
    };

    const started = await call("POST", "/api/store/sync", {});
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ connectionId, status: "queued" });
    // One at a time per store: asking again answers the same sync.
    const again = await call("POST", "/api/store/sync", { connectionId });
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(started.body.id);

    const sync = await finished(started.body.id);
    expect(sync.status).toBe("finished");
    expect(store.log.some((l) => l.status === 429)).toBe(true);
    expect(sync).toMatchObject({ total: 1000, done: 1000 });
    const report: ReportRow[] = sync.report;
    const { created, updated, skipped, conflicts } = sync.counts;
    expect(created + updated + skipped + conflicts).toBe(report.length);
    const row = (id: number, variant: number | null = null) =>
      report.find((r) => r.bcProductId === id && r.bcVariantId === variant);
    expect(row(7)).toMatchObject({
      sku: "BC-00003",
      action: "skipped",
      reason: "the same SKU as store product #3: only the first is synced",
    });
    expect(row(11)).toMatchObject({ sku: "", action: "skipped", reason: "no SKU in the store" });
    expect(row(12)?.reason).toContain("the SKU is not one the catalogue takes");
    expect(row(13)?.reason).toContain("out of the catalogue's range");
    expect(row(20)).toMatchObject({
      action: "updated",
      reason: "was in the catalogue already, not linked: linked to the store and updated",
    });
    expect(row(1)).toMatchObject({ sku: "BC-00001", action: "created", reason: "" });
    expect(row(16)).toMatchObject({
      sku: "BC-00016",
      action: "skipped",
      reason: "the catalogue refused it (a value out of its rules)",
    });
    expect(row(17)).toMatchObject({ sku: "BC-00017", action: "created" });
    expect(updated).toBe(1);
    expect(skipped).toBe(5);
    // 994 products, and two variants of each fifth product.
    expect(created).toBe(994 + 400);

    const linked = await productBySku("BC-00020");
    expect(linked).toMatchObject({ id: local.body.id, name: "Store product 20", stock_level: 20 });
    const variant = await productBySku("BC-00020-L");
    expect(variant).toMatchObject({ parent_id: local.body.id, stock_level: 4, name: "Store product 20 (L)" });
    const fallback = await productBySku("BC-00014");
    const category14 = await call("GET", `/api/categories/${fallback.category_id}`);
    expect(category14.body.name).toBe("From the store");
    const kitchen = await productBySku("BC-00001");
    expect((await call("GET", `/api/categories/${kitchen.category_id}`)).body.name).toBe("Kitchen");
    // The sync's own writes are not pushed back.
    expect(store.log.filter((l) => l.method === "PUT")).toEqual([]);
    const list = (await call("GET", "/api/store/sync")).body.data;
    expect(list[0]).toMatchObject({ id: started.body.id, status: "finished" });
    expect((await call("GET", `/api/store/connections/${connectionId}`)).body.lastSyncAt).not.toBeNull();
  }, 120_000);

  it("keeps the store's version of a product changed on both sides, and says so", async () => {
    const one = await productBySku("BC-00001");
    expect((await call("PATCH", `/api/products/${one.id}`, { name: "Renamed here" })).status).toBe(200);
    const later = new Date(Date.now() + 1000).toISOString();
    Object.assign(store.products[0], { name: "Renamed in the store", date_modified: later });
    Object.assign(store.products[1], { name: "Only the store changed", date_modified: later });
    // A store product's SKU changes: the same catalogue product takes it.
    const six = await productBySku("BC-00006");
    Object.assign(store.products[5], { sku: "BC-00006-B", date_modified: later });
    // A store product is removed and made again: the new one's SKU belongs to the old one's link.
    const [eight] = store.products.splice(7, 1);
    store.products.push({ ...eight, id: 1001, date_modified: later });

    const started = await call("POST", "/api/store/sync", { connectionId });
    const sync = await finished(started.body.id);
    const report: ReportRow[] = sync.report;
    expect(report.find((r) => r.sku === "BC-00001")).toMatchObject({
      action: "conflict",
      reason: CONFLICT_REASON,
    });
    expect(report.find((r) => r.sku === "BC-00002")).toMatchObject({ action: "updated" });
    expect(report.find((r) => r.sku === "BC-00004")).toMatchObject({
      action: "skipped",
      reason: "unchanged in the store since the last sync",
    });
    expect(report.find((r) => r.bcProductId === 6)).toMatchObject({ sku: "BC-00006-B", action: "updated" });
    expect(report.find((r) => r.bcProductId === 1001)).toMatchObject({
      sku: "BC-00008",
      action: "skipped",
      reason: "its catalogue product is linked to store product #8 already",
    });
    expect(sync.counts).toMatchObject({ conflicts: 1, updated: 2, created: 0 });
    expect((await productBySku("BC-00001")).name).toBe("Renamed in the store");
    expect((await productBySku("BC-00006-B")).id).toBe(six.id);
    store.products.pop();
    store.products.splice(7, 0, eight);
  }, 60_000);

  it("pushes an admin's price and stock changes of linked products back to the store", async () => {
    const two = await productBySku("BC-00002");
    const changed = await call("PATCH", `/api/products/${two.id}`, { price: 123.45, stock_level: 7 });
    expect(changed.status).toBe(200);
    const small = await productBySku("BC-00005-S");
    expect((await call("PATCH", `/api/products/${small.id}`, { stock_level: 9 })).status).toBe(200);
    // A change of neither is not pushed.
    const three = await productBySku("BC-00003");
    await call("PATCH", `/api/products/${three.id}`, { name: "Only a name" });
    for (let i = 0; i < 100 && store.log.filter((l) => l.method === "PUT").length < 2; i++) await sleep(100);
    expect(store.log.filter((l) => l.method === "PUT").map((l) => [l.path, l.status])).toEqual(
      expect.arrayContaining([
        ["/stores/abc123/v3/catalog/products/2", 200],
        ["/stores/abc123/v3/catalog/products/5/variants/50", 200],
      ]),
    );
    expect(store.products[1]).toMatchObject({ price: 123.45, inventory_level: 7 });
    expect(store.products[4].variants?.[0]).toMatchObject({ inventory_level: 9 });
    await sleep(300);
    expect(store.log.filter((l) => l.method === "PUT")).toHaveLength(2);

    // The next sync does not take its own push for a change on both sides.
    const sync = await finished((await call("POST", "/api/store/sync", {})).body.id);
    const report: ReportRow[] = sync.report;
    expect(report.find((r) => r.sku === "BC-00002")?.action).not.toBe("conflict");
    expect(report.find((r) => r.sku === "BC-00005-S")?.action).not.toBe("conflict");
  }, 60_000);

  it("keeps variants one level deep, as a store's are", async () => {
    const five = await productBySku("BC-00005");
    const small = await productBySku("BC-00005-S");
    const one = await productBySku("BC-00001");
    const refused = async (id: string, parent: string) => {
      const answer = await call("PATCH", `/api/products/${id}`, { parent_id: parent });
      expect(answer.status).toBe(400);
      return answer.body.details;
    };
    expect(await refused(one.id, one.id)).toEqual([
      { field: "parent_id", message: "A product cannot be a variant of itself" },
    ]);
    expect(await refused(one.id, small.id)).toEqual([
      {
        field: "parent_id",
        message: "The product chosen is a variant itself: choose the product it is a variant of",
      },
    ]);
    expect(await refused(five.id, one.id)).toEqual([
      { field: "parent_id", message: "This product has variants of its own, so it cannot be a variant" },
    ]);
    const two = await productBySku("BC-00002");
    expect((await call("PATCH", `/api/products/${two.id}`, { parent_id: one.id })).status).toBe(200);
    expect((await call("PATCH", `/api/products/${two.id}`, { parent_id: null })).status).toBe(200);
  });

  it("resyncs one product for a webhook (upsertStoreProduct)", async () => {
    Object.assign(store.products[3], { name: "Told by a webhook", date_modified: new Date().toISOString() });
    const rows = await upsertStoreProduct(s.ctx, connectionId, 4);
    expect(rows).toEqual([
      { sku: "BC-00004", action: "updated", reason: "", bcProductId: 4, bcVariantId: null },
    ]);
    expect((await productBySku("BC-00004")).name).toBe("Told by a webhook");
    expect(await upsertStoreProduct(s.ctx, connectionId, 999_999)).toEqual([]);
  });

  it("lists the store's products with the list contract", async () => {
    const page = await call("GET", "/api/store/products?pageSize=5&page=2&sort=sku_code&q=BC-0000");
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(5);
    expect(page.body.data[0]).toMatchObject({
      sku_code: expect.stringMatching(/^BC-0000/),
      link: { connectionId, bcProductId: expect.any(Number), syncedAt: expect.any(String) },
    });
    const filters = encodeURIComponent(
      JSON.stringify([{ field: "sku_code", operator: "eq", value: "BC-00005-S" }]),
    );
    const one = await call("GET", `/api/store/products?filters=${filters}`);
    expect(one.body).toMatchObject({
      total: 1,
      data: [{ stock_level: 9, link: { bcProductId: 5, bcVariantId: 50 } }],
    });
    const all = await call("GET", "/api/store/products");
    expect(all.body.data).toHaveLength(10);
    expect(all.body.total).toBe(1395);
  });

  it("needs the Online store module on every route (403), and a session (401)", async () => {
    const nina = (await signedInMember(s, admin, [5])).token; // CRM only
    const id = "00000000-0000-4000-8000-000000000000";
    const routes: Array<[string, string, unknown?]> = [
      ["POST", "/api/store/sync", {}],
      ["GET", "/api/store/sync"],
      ["GET", `/api/store/sync/${id}`],
      ["GET", "/api/store/products"],
    ];
    for (const [method, path, body] of routes) {
      expect((await call(method, path, body, nina)).status, `${method} ${path}`).toBe(403);
      expect((await s.api(method, path, { body })).status, `${method} ${path} signed out`).toBe(401);
    }
  });
});
