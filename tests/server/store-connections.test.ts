/**
 * `/api/store/connections` (issue 18) against a loopback BigCommerce store (fake-bigcommerce.ts):
 * a store is checked before it is saved, with the field at fault named; its token is sealed and
 * never answered; one default; a check again records how it went; the Online store module on
 * every route.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeStore, startFakeBigCommerce } from "./fake-bigcommerce";
import { DRIVERS, signedInMember, startServer, type TestServer } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

describe.each(DRIVERS)("store connections on %s", (driver) => {
  let s: TestServer;
  let store: FakeStore;
  let admin: string;

  beforeAll(async () => {
    store = await startFakeBigCommerce({ otherStores: { second1: "token-of-the-second-store" } });
    // The loopback store is the operator's configured origin: no OUTBOUND_ALLOW_PRIVATE needed.
    s = await startServer(driver, { BIGCOMMERCE_API_URL: store.url });
    admin = (await s.signIn()).accessToken;
  });

  afterAll(async () => {
    await s?.close();
    await store?.close();
  });

  const call = (method: string, path: string, body?: unknown, token = admin) =>
    s.api<Any>(method, path, { token, body });

  it("checks a store before saving it, names the field at fault, and never answers the token", async () => {
    const badToken = await call("POST", "/api/store/connections", {
      name: "Main",
      storeHash: store.hash,
      token: "not-the-token",
    });
    expect(badToken.status).toBe(400);
    expect(badToken.body.details).toEqual([
      {
        field: "token",
        message: "BigCommerce refused this API token: check it, and that its account may read the store",
      },
    ]);
    const badHash = await call("POST", "/api/store/connections", {
      name: "Main",
      storeHash: "nope42",
      token: store.token,
    });
    expect(badHash.status).toBe(400);
    expect(badHash.body.details).toEqual([
      {
        field: "storeHash",
        message:
          "No BigCommerce store answers to this store hash: copy it from the store's API path, the code after /stores/",
      },
    ]);
    const shapes = await call("POST", "/api/store/connections", {
      name: " ",
      storeHash: "a/b",
      token: "short",
    });
    expect(shapes.status).toBe(400);
    expect(shapes.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      "name",
      "storeHash",
      "token",
    ]);
    expect((await call("GET", "/api/store/connections")).body.data).toEqual([]);

    const made = await call("POST", "/api/store/connections", {
      name: "Main",
      storeHash: store.hash,
      token: store.token,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      platform: 13,
      name: "Main",
      storeHash: store.hash,
      storeName: "Test store",
      currency: "INR",
      isDefault: true,
      status: "connected",
      lastError: null,
    });
    expect(JSON.stringify(made.body)).not.toContain(store.token);
    const row = await s.ctx.db
      .selectFrom("store_connections")
      .select("token_sealed")
      .where("id", "=", made.body.id)
      .executeTakeFirstOrThrow();
    expect(row.token_sealed).not.toContain(store.token);
    expect(JSON.stringify((await call("GET", "/api/store/connections")).body)).not.toContain(store.token);
    const again = await call("POST", "/api/store/connections", {
      name: "Twice",
      storeHash: store.hash,
      token: store.token,
    });
    expect(again.status).toBe(409);
    expect(again.body.details).toEqual([{ field: "storeHash", message: "Store hash is connected already" }]);
  });

  it("keeps one default, records a check that fails, and takes a new token once it works", async () => {
    const [main] = (await call("GET", "/api/store/connections")).body.data;
    const second = await call("POST", "/api/store/connections", {
      name: "Second",
      storeHash: "second1",
      token: "token-of-the-second-store",
    });
    expect(second.body).toMatchObject({ isDefault: false, storeName: "Store second1" });
    const made = await call("PATCH", `/api/store/connections/${second.body.id}`, { isDefault: true });
    expect(made.body.isDefault).toBe(true);
    const list = (await call("GET", "/api/store/connections")).body.data;
    expect(list.map((c: { name: string; isDefault: boolean }) => [c.name, c.isDefault])).toEqual([
      ["Second", true],
      ["Main", false],
    ]);

    // The store's token is revoked: the check says so, on the token, and the connection is failing.
    const kept = store.token;
    store.token = "rotated-token-123";
    const failed = await call("POST", `/api/store/connections/${main.id}/test`);
    expect(failed.body).toMatchObject({ ok: false, field: "token" });
    expect((await call("GET", `/api/store/connections/${main.id}`)).body).toMatchObject({
      status: "failing",
      lastError: expect.stringContaining("refused this API token"),
    });
    const wrong = await call("PATCH", `/api/store/connections/${main.id}`, { token: kept });
    expect(wrong.status).toBe(400);
    const fixed = await call("PATCH", `/api/store/connections/${main.id}`, {
      token: "rotated-token-123",
      name: "Main store",
    });
    expect(fixed.body).toMatchObject({ name: "Main store", status: "connected", lastError: null });
    expect((await call("POST", `/api/store/connections/${main.id}/test`)).body).toMatchObject({
      ok: true,
      storeName: "Test store",
    });
    store.token = kept;
    await call("PATCH", `/api/store/connections/${main.id}`, { token: kept });

    // Removing the default passes it on.
    expect((await call("DELETE", `/api/store/connections/${second.body.id}`)).status).toBe(204);
    expect((await call("GET", "/api/store/connections")).body.data).toMatchObject([
      { id: main.id, isDefault: true },
    ]);
    expect((await call("DELETE", `/api/store/connections/${second.body.id}`)).status).toBe(404);
    expect((await call("PATCH", `/api/store/connections/${main.id}`, {})).status).toBe(400);
    expect((await call("GET", "/api/store/connections/not-a-uuid")).status).toBe(400);
  });

  it("needs the Online store module on every route (403), and a session (401)", async () => {
    const nina = (await signedInMember(s, admin, [5])).token; // CRM only
    const id = "00000000-0000-4000-8000-000000000000";
    const routes: Array<[string, string, unknown?]> = [
      ["GET", "/api/store/connections"],
      ["POST", "/api/store/connections", { name: "X", storeHash: store.hash, token: store.token }],
      ["GET", `/api/store/connections/${id}`],
      ["PATCH", `/api/store/connections/${id}`, { name: "Y" }],
      ["POST", `/api/store/connections/${id}/test`],
      ["DELETE", `/api/store/connections/${id}`],
    ];
    for (const [method, path, body] of routes) {
      expect((await call(method, path, body, nina)).status, `${method} ${path}`).toBe(403);
      expect((await s.api(method, path, { body })).status, `${method} ${path} signed out`).toBe(401);
    }
  });
});
