/**
 * A store's webhooks and the carts list (issue 18) against a loopback BigCommerce store: hooks
 * registered on connecting with the connection's secret header; a callback without it refused;
 * an abandoned cart read from the store, matched to its client (timeline, automation trigger),
 * once however often the store retries; a converted cart becomes an order; the list's contract.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BcStoreCart } from "../../server/modules/store/bigcommerce";
import { waitFor } from "./child-server";
import { type FakeStore, startFakeBigCommerce } from "./fake-bigcommerce";
import { DRIVERS, signedInMember, startServer, type TestServer } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

const PUBLIC_URL = "https://atelier.example.test";

const storefrontCart = (id: string, customerId: number, email = ""): BcStoreCart => ({
  id,
  customer_id: customerId,
  email,
  currency: { code: "INR" },
  base_amount: 2469,
  cart_amount: 2469,
  created_time: "2026-11-20T09:00:00+00:00",
  updated_time: "2026-11-20T10:30:00+00:00",
  line_items: {
    physical_items: [
      {
        id: "li-1",
        product_id: 5,
        variant_id: 50,
        sku: "BC-00005-S",
        name: "Teapot, small",
        quantity: 2,
        list_price: 1000,
        sale_price: 999.5,
        extended_sale_price: 1999,
      },
      {
        id: "li-2",
        product_id: 7,
        variant_id: 70,
        sku: "BC-00007",
        name: "Cup",
        quantity: 1,
        list_price: 470,
        sale_price: 470,
        extended_sale_price: 470,
      },
    ],
    digital_items: [],
  },
});

describe.each(DRIVERS)("store webhooks and carts on %s", (driver) => {
  let s: TestServer;
  let store: FakeStore;
  let admin: string;
  let connectionId: string;
  const call = (method: string, path: string, body?: unknown, token = admin) =>
    s.api<Any>(method, path, { token, body });
  const until = <T>(what: string, probe: () => Promise<T | undefined | false>) =>
    // A cap for something stuck, not a timing check: a loaded machine runs the job queue late.
    waitFor(what, probe, 60_000, 50);
  const carts = async (query = "") => (await call("GET", `/api/store/carts${query}`)).body;

  beforeAll(async () => {
    store = await startFakeBigCommerce();
    s = await startServer(driver, { BIGCOMMERCE_API_URL: store.url });
    store.deliverTo = (destination) => destination.replace(PUBLIC_URL, s.baseUrl);
    admin = (await s.signIn()).accessToken;
    const made = await call("POST", "/api/store/connections", {
      name: "Main",
      storeHash: store.hash,
      token: store.token,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    connectionId = made.body.id;
  });

  afterAll(async () => {
    await s?.close();
    await store?.close();
  });

  it("registers one hook per event at the public address, each carrying the connection's secret header", async () => {
    const connection = await until("webhooks registered", async () => {
      const c = (await call("GET", `/api/store/connections/${connectionId}`)).body;
      return c.webhooks !== "none" && c;
    });
    expect(connection).toMatchObject({ webhooks: "registered", webhooksError: null });
    expect(store.hooks.map((h) => h.scope).sort()).toEqual([
      "store/cart/abandoned",
      "store/cart/converted",
      "store/product/created",
      "store/product/deleted",
      "store/product/inventory/updated",
      "store/product/updated",
    ]);
    for (const hook of store.hooks) {
      expect(hook.destination).toBe(`${PUBLIC_URL}/hooks/store/${connectionId}`);
      expect(hook.is_active).toBe(true);
      expect(Object.keys(hook.headers ?? {})).toEqual(["x-atelier-store-hook"]);
      expect(hook.headers?.["x-atelier-store-hook"]).toMatch(/^[\w-]{43}$/);
    }
    // The secret is never answered.
    expect(JSON.stringify(connection)).not.toContain(store.hooks[0].headers?.["x-atelier-store-hook"]);

    // Registering again brings the same hooks up to date (a deactivated one is active again).
    store.hooks[0].is_active = false;
    const again = await call("POST", `/api/store/connections/${connectionId}/webhooks`);
    expect(again.status).toBe(202);
    await until("hook reactivated", async () => store.hooks[0].is_active);
    expect(store.hooks).toHaveLength(6);
  });

  it("refuses a callback without the secret header, and ignores what it does not act on", async () => {
    const url = `/hooks/store/${connectionId}`;
    const body = { scope: "store/cart/abandoned", data: { type: "cart", id: "x" } };
    expect((await s.api("POST", url, { body })).status).toBe(401);
    const wrong = await s.api("POST", url, { body, headers: { "x-atelier-store-hook": "guess" } });
    expect(wrong.status).toBe(401);
    const nobody = await s.api("POST", "/hooks/store/00000000-0000-4000-8000-000000000000", { body });
    expect(nobody.status).toBe(404);
    expect((await s.api("POST", "/hooks/store/not-a-uuid", { body })).status).toBe(404);
    const secret = store.hooks[0].headers?.["x-atelier-store-hook"] as string;
    for (const odd of [{}, [], { scope: "store/order/created", data: { id: 1 } }, { scope: 1 }, "text"]) {
      const res = await s.api<Any>("POST", url, { body: odd, headers: { "x-atelier-store-hook": secret } });
      expect(res.status, JSON.stringify(odd)).toBeLessThan(500);
    }
    expect((await carts()).total).toBe(0);
  });

  it("keeps an abandoned cart with its customer and items, tells the client's timeline and starts the automation, once", async () => {
    const client = await call("POST", "/crm/clients", {
      name: "Meera Iyer",
      email: "meera.iyer@example.com",
    });
    expect(client.status, JSON.stringify(client.body)).toBe(201);
    const flow = await call("POST", "/api/automations", { name: "Win back carts" });
    await call("PUT", `/api/automations/${flow.body.id}/draft`, {
      definition: {
        trigger: { kind: "cart-abandoned" },
        steps: [{ id: "s1", kind: "action", type: "add_tag", inputs: { tag: "cart-left" } }],
      },
    });
    const published = await call("POST", `/api/automations/${flow.body.id}/publish`);
    expect(published.status, JSON.stringify(published.body)).toBe(200);

    store.customers.push({ id: 7, email: "Meera.Iyer@example.com", first_name: "Meera", last_name: "Iyer" });
    store.storefrontCarts.push(storefrontCart("cart-1", 7));
    expect(await store.fire("store/cart/abandoned", { type: "cart", id: "cart-1" })).toEqual([200]);
    // The store tries again (same callback): still one cart, one entry, one run.
    expect(await store.fire("store/cart/abandoned", { type: "cart", id: "cart-1" })).toEqual([200]);

    const list = await until("the cart listed", async () => {
      const page = await carts();
      return page.total === 1 && page;
    });
    expect(list.data[0]).toMatchObject({
      source: "store",
      status: "abandoned",
      externalId: "cart-1",
      clientId: client.body.id,
      clientName: "Meera Iyer",
      customerName: "Meera Iyer",
      email: "Meera.Iyer@example.com",
      currency: "INR",
      totalMinor: 246900,
      itemCount: 3,
      cartUpdatedAt: "2026-11-20T10:30:00.000Z",
      items: [
        { sku: "BC-00005-S", name: "Teapot, small", quantity: 2, priceMinor: 99950 },
        { sku: "BC-00007", name: "Cup", quantity: 1, priceMinor: 47000 },
      ],
    });
    const runs = await until("the automation's run", async () => {
      const r = (await call("GET", `/api/automations/${flow.body.id}/runs`)).body;
      return r.total >= 1 && r;
    });
    expect(runs.total).toBe(1);
    const timeline = (await call("GET", `/crm/clients/${client.body.id}/timeline?kind=store`)).body;
    expect(timeline.data.map((e: Any) => e.title)).toEqual([
      "Left a cart in the store: 3 items, INR 2469.00",
    ]);

    // A cart the store no longer has is kept with what the callback said, and without a client
    // it is still an abandoned cart: the flow runs for it too.
    expect(await store.fire("store/cart/abandoned", { type: "cart", id: "gone-cart" })).toEqual([200]);
    const gone = await until("the unknown cart listed", async () => {
      const page = await carts();
      return page.total === 2 && page.data.find((c: Any) => c.externalId === "gone-cart");
    });
    expect(gone).toMatchObject({ clientId: null, email: null, totalMinor: 0, itemCount: 0, items: [] });
    await until("a second run", async () => {
      const r = (await call("GET", `/api/automations/${flow.body.id}/runs`)).body;
      return r.total === 2;
    });
  });

  it("makes a converted cart an order on the client's timeline", async () => {
    expect(await store.fire("store/cart/converted", { type: "cart", id: "cart-1", orderId: 252 })).toEqual([
      200,
    ]);
    const cart = await until("the cart ordered", async () => {
      const c = (
        await carts(
          `?filters=${encodeURIComponent(JSON.stringify([{ field: "status", operator: "eq", value: "converted" }]))}`,
        )
      ).data[0];
      return c;
    });
    expect(cart).toMatchObject({ externalId: "cart-1", status: "converted", orderId: "252" });
    const timeline = (await call("GET", `/crm/clients/${cart.clientId}/timeline?kind=store`)).body;
    expect(timeline.data.map((e: Any) => e.title)).toEqual([
      "Ordered in the store: order 252, INR 2469.00",
      "Left a cart in the store: 3 items, INR 2469.00",
    ]);
    // A late abandoned callback (a new event: a later time, so another hash, not a replay) does
    // not undo the order once its job has run.
    store.storefrontCarts[0].updated_time = "2026-11-21T10:30:00+00:00";
    const lateJobs = () =>
      s.database.db
        .selectFrom("jobs")
        .select("state")
        .where("name", "=", "store.webhook")
        .where("key", "like", "%:cart-1:%")
        .execute();
    const before = (await lateJobs()).length;
    expect(await store.fire("store/cart/abandoned", { type: "cart", id: "cart-1" }, 1_700_000_600)).toEqual([
      200,
    ]);
    await until("the late callback's job done", async () => {
      const jobs = await lateJobs();
      return jobs.length > before && jobs.every((j) => j.state === "done");
    });
    expect((await call("GET", `/api/store/carts/${cart.id}`)).body.status).toBe("converted");
  });

  it("answers the list contract, one cart, and the Online store module only", async () => {
    const byEmail = await carts("?q=meera.iyer");
    expect(byEmail.data.map((c: Any) => c.externalId)).toEqual(["cart-1"]);
    const sorted = await carts("?sort=total_minor&pageSize=1&page=2");
    expect(sorted).toMatchObject({ total: 2 });
    expect(sorted.data.map((c: Any) => c.externalId)).toEqual(["cart-1"]);
    expect((await call("GET", "/api/store/carts?sort=email")).status).toBe(400);
    expect((await call("GET", "/api/store/carts?pageSize=0")).status).toBe(400);
    expect((await call("GET", "/api/store/carts/not-a-uuid")).status).toBe(400);
    expect((await call("GET", "/api/store/carts/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const { token: member } = await signedInMember(s, admin, []);
    for (const [method, path] of [
      ["GET", "/api/store/carts"],
      ["GET", `/api/store/carts/${byEmail.data[0].id}`],
      ["POST", `/api/store/connections/${connectionId}/webhooks`],
    ])
      expect((await call(method, path, undefined, member)).status, path).toBe(403);
  });

  it("answers a callback the store sends again after its job finished as the first, reading the store once", async () => {
    store.storefrontCarts.push(storefrontCart("cart-replayed", 0, "replay@example.com"));
    const reads = () =>
      store.log.filter((r) => r.method === "GET" && r.path === `/stores/${store.hash}/v3/carts/cart-replayed`)
        .length;
    const jobsOf = () =>
      s.database.db
        .selectFrom("jobs")
        .select("state")
        .where("name", "=", "store.webhook")
        .where("key", "like", `%:cart-replayed:%`)
        .execute();
    expect(await store.fire("store/cart/abandoned", { type: "cart", id: "cart-replayed" })).toEqual([200]);
    await until("the cart kept", async () =>
      (await carts()).data.some((c: Any) => c.externalId === "cart-replayed"),
    );
    await until("its job done", async () => (await jobsOf()).every((j) => j.state === "done"));
    expect(reads()).toBe(1);
    // The store retries for hours: five more deliveries one after another, then six at once.
    for (let i = 0; i < 5; i++)
      expect(await store.fire("store/cart/abandoned", { type: "cart", id: "cart-replayed" })).toEqual([200]);
    const burst = await Promise.all(
      Array.from({ length: 6 }, () =>
        store.fire("store/cart/abandoned", { type: "cart", id: "cart-replayed" }),
      ),
    );
    expect(burst.flat()).toEqual(Array(6).fill(200));
    // No job was queued for any of them: the store was read once, whatever a later poll finds.
    expect(await jobsOf()).toEqual([{ state: "done" }]);
    expect(reads()).toBe(1);
    // A replay is answered as the first was (the same body), marked as a replay.
    const hook = store.hooks.find((h) => h.scope === "store/cart/abandoned") as Any;
    const body = {
      scope: "store/cart/abandoned",
      store_id: "1025646",
      producer: `stores/${store.hash}`,
      data: { type: "cart", id: "cart-by-hand" },
      created_at: 1_700_000_000,
      hash: "a-callback-hash",
    };
    const send = () => s.api<Any>("POST", `/hooks/store/${connectionId}`, { body, headers: hook.headers });
    const first = await send();
    const again = await send();
    expect(first).toMatchObject({ status: 200, body: { accepted: true } });
    expect(again).toMatchObject({ status: 200, body: { accepted: true } });
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });
});
