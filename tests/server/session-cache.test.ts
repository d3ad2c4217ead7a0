/**
 * Checked sessions are cached for a few seconds (server/auth/principal-cache.ts), yet every
 * change that ends or narrows a session takes effect on the very next request, on this
 * instance and, on PostgreSQL, on another instance sharing the database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrincipalCache } from "../../server/auth/principal-cache";
import { DRIVERS, type SignedIn, sleep, startInstances, startServer, type TestServer } from "./harness";

const PRODUCTS = 2;
const PDF = 1;

async function newUser(s: TestServer, admin: SignedIn, modules: number[]) {
  const email = `cache-${Math.random().toString(36).slice(2)}@example.com`;
  const created = await s.api<{ id: string }>("POST", "/api/users", {
    token: admin.accessToken,
    body: { first_name: "Cache", last_name: "User", email, password: "Cache-passw0rd", role: 3, modules },
  });
  expect(created.status).toBe(201);
  const signedIn = await s.signIn(email, "Cache-passw0rd", {
    deviceId: `d-${email}`,
    deviceName: "Linux Chrome",
  });
  return { id: created.body.id, email, signedIn };
}

describe.each(DRIVERS)("session cache on %s", (driver) => {
  let s: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    s = await startServer(driver, { SESSION_CACHE_MS: "60000" });
    admin = await s.signIn();
  });
  afterAll(() => s?.close());

  it("serves repeated requests of a session from the cache", async () => {
    const u = await newUser(s, admin, [PRODUCTS]);
    expect((await s.api("GET", "/api/products", { token: u.signedIn.accessToken })).status).toBe(200);
    const before = s.ctx.principals.size;
    expect((await s.api("GET", "/api/products", { token: u.signedIn.accessToken })).status).toBe(200);
    expect(s.ctx.principals.size).toBe(before);
    expect(s.ctx.principals.get(sessionOf(u.signedIn.accessToken))?.userId).toBe(u.id);
  });

  it("a removed module grant answers 403 on the next request", async () => {
    const u = await newUser(s, admin, [PRODUCTS, PDF]);
    const token = u.signedIn.accessToken;
    expect((await s.api("GET", "/api/products", { token })).status).toBe(200);
    const patched = await s.api("PATCH", `/api/users/${u.id}`, {
      token: admin.accessToken,
      body: { modules: [PDF] },
    });
    expect(patched.status).toBe(200);
    expect((await s.api("GET", "/api/products", { token })).status).toBe(403);
  });

  it("disabling a user answers 406 on the next request", async () => {
    const u = await newUser(s, admin, [PRODUCTS]);
    const token = u.signedIn.accessToken;
    expect((await s.api("GET", "/api/products", { token })).status).toBe(200);
    await s.api("PATCH", `/api/users/${u.id}`, { token: admin.accessToken, body: { active: false } });
    expect((await s.api("GET", "/api/products", { token })).status).toBe(406);
  });

  it("deleting a user answers 401 on the next request", async () => {
    const u = await newUser(s, admin, [PRODUCTS]);
    const token = u.signedIn.accessToken;
    expect((await s.api("GET", "/api/products", { token })).status).toBe(200);
    expect((await s.api("DELETE", `/api/users/${u.id}`, { token: admin.accessToken })).status).toBe(204);
    expect((await s.api("GET", "/api/products", { token })).status).toBe(401);
  });

  it("a device signed out by its owner answers 406 on the next request", async () => {
    const u = await newUser(s, admin, [PRODUCTS]);
    const token = u.signedIn.accessToken;
    expect((await s.api("GET", "/api/users/me", { token })).status).toBe(200);
    const deviceId = `d-${u.email}`;
    expect((await s.api("DELETE", `/api/users/me/devices/${deviceId}`, { token })).status).toBe(204);
    expect((await s.api("GET", "/api/users/me", { token })).status).toBe(406);
  });
});

describe.runIf(DRIVERS.includes("postgres"))("two instances on one PostgreSQL database", () => {
  const CACHE_MS = 60_000;
  let a: TestServer;
  let b: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    ({ a, b, admin } = await startCachingPair(CACHE_MS));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /**
   * Polls B until it answers `status`. B caches sessions for 60 s, so any answer well inside
   * that window came from A's NOTIFY, not from the cache running out; the deadline is half the
   * window, generous for a loaded machine, and a failure still means the message was lost.
   */
  async function untilStatus(path: string, token: string, status: number) {
    const started = Date.now();
    let last = 0;
    while (Date.now() - started < CACHE_MS / 2) {
      last = (await b.api("GET", path, { token })).status;
      if (last === status) return Date.now() - started;
      await sleep(10);
    }
    throw new Error(`instance B still answers ${last}, expected ${status}`);
  }

  it("a sign-out on instance A ends the session on instance B", async () => {
    const u = await newUser(a, admin, [PRODUCTS]);
    const token = u.signedIn.accessToken;
    expect((await b.api("GET", "/api/products", { token })).status).toBe(200);
    expect(b.ctx.principals.get(sessionOf(token))).toBeDefined();
    expect((await a.api("DELETE", `/api/users/me/devices/d-${u.email}`, { token })).status).toBe(204);
    expect(await untilStatus("/api/products", token, 406)).toBeLessThan(CACHE_MS / 2);
  });

  it("a grant removed on instance A answers 403 on instance B", async () => {
    const u = await newUser(a, admin, [PRODUCTS, PDF]);
    const token = u.signedIn.accessToken;
    expect((await b.api("GET", "/api/products", { token })).status).toBe(200);
    await a.api("PATCH", `/api/users/${u.id}`, { token: admin.accessToken, body: { modules: [PDF] } });
    expect(await untilStatus("/api/products", token, 403)).toBeLessThan(CACHE_MS / 2);
  });
});

/**
 * Issue 11's bound: with the default SESSION_CACHE_MS (5 s) a revoke, a disable or a grant
 * change made through A is refused by B within that time at most, although B had the
 * session cached. Each case measures the delay from A's answer to B's first refusal and
 * asserts it against the configured bound (NOTIFY makes it near-immediate in practice).
 */
describe.runIf(DRIVERS.includes("postgres"))("two instances with SESSION_CACHE_MS=5000", () => {
  const CACHE_MS = 5000;
  let a: TestServer;
  let b: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    ({ a, b, admin } = await startCachingPair(CACHE_MS));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /**
   * A user signed in through A whose session B has just checked and cached. Creating the user
   * sends B a "forget this user" message that may land after B's first lookup on a loaded
   * machine, so B is asked again until the entry stays (bounded by CACHE_MS).
   */
  async function cachedOnB(modules: number[]) {
    const u = await newUser(a, admin, modules);
    const token = u.signedIn.accessToken;
    const started = Date.now();
    do {
      expect((await b.api("GET", "/api/products", { token })).status).toBe(200);
      if (b.ctx.principals.get(sessionOf(token))) break;
      await sleep(20);
    } while (Date.now() - started < CACHE_MS);
    expect(b.ctx.principals.get(sessionOf(token))?.userId).toBe(u.id);
    return { ...u, token };
  }

  /** Ms from now until B answers `status` (polled; gives up after the bound). */
  async function delayUntil(token: string, status: number): Promise<number> {
    const started = Date.now();
    let last = 0;
    while (Date.now() - started <= CACHE_MS) {
      last = (await b.api("GET", "/api/products", { token })).status;
      if (last === status) return Date.now() - started;
      await sleep(10);
    }
    throw new Error(`instance B still answers ${last} after ${CACHE_MS} ms, expected ${status}`);
  }

  it("a device revoked by an admin on A is refused on B within SESSION_CACHE_MS", async () => {
    const u = await cachedOnB([PRODUCTS]);
    const revoked = await a.api("DELETE", `/api/users/${u.id}/devices/d-${u.email}`, {
      token: admin.accessToken,
    });
    expect(revoked.status).toBe(204);
    expect(await delayUntil(u.token, 406)).toBeLessThan(CACHE_MS);
  });

  it("a user disabled on A is refused on B within SESSION_CACHE_MS", async () => {
    const u = await cachedOnB([PRODUCTS]);
    const disabled = await a.api("PATCH", `/api/users/${u.id}`, {
      token: admin.accessToken,
      body: { active: false },
    });
    expect(disabled.status).toBe(200);
    expect(await delayUntil(u.token, 406)).toBeLessThan(CACHE_MS);
  });

  it("a grant removed on A answers 403 on B within SESSION_CACHE_MS", async () => {
    const u = await cachedOnB([PRODUCTS, PDF]);
    const patched = await a.api("PATCH", `/api/users/${u.id}`, {
      token: admin.accessToken,
      body: { modules: [PDF] },
    });
    expect(patched.status).toBe(200);
    expect(await delayUntil(u.token, 403)).toBeLessThan(CACHE_MS);
  });
});

describe("PrincipalCache", () => {
  const session = (userId: string) => ({
    userId,
    deviceId: "d",
    role: 3,
    modules: new Set([1]),
    expiresAt: Number.MAX_SAFE_INTEGER,
  });

  it("expires entries after the TTL and with their session", () => {
    let now = 1000;
    const cache = new PrincipalCache(50, 10, () => now);
    cache.set("s1", session("u1"), cache.generation("u1"));
    cache.set("s2", { ...session("u1"), expiresAt: 1010 }, cache.generation("u1"));
    expect(cache.get("s1")).toBeDefined();
    now = 1020;
    expect(cache.get("s2")).toBeUndefined();
    now = 1051;
    expect(cache.get("s1")).toBeUndefined();
  });

  it("does not store an answer looked up before a forget of its user", () => {
    const cache = new PrincipalCache(1000);
    const generation = cache.generation("u1");
    cache.forgetUser("u1"); // e.g. a sign-out committed while the lookup ran
    cache.set("s1", session("u1"), generation);
    expect(cache.get("s1")).toBeUndefined();
    cache.set("s1", session("u1"), cache.generation("u1"));
    expect(cache.get("s1")).toBeDefined();
  });

  it("stores nothing while disabled, and forgets everything on disable", () => {
    const cache = new PrincipalCache(1000);
    cache.set("s1", session("u1"), cache.generation("u1"));
    const generation = cache.generation("u2");
    cache.setEnabled(false);
    expect(cache.get("s1")).toBeUndefined();
    cache.set("s2", session("u2"), cache.generation("u2"));
    expect(cache.size).toBe(0);
    cache.setEnabled(true);
    cache.set("s3", session("u2"), generation);
    expect(cache.size).toBe(0);
  });

  it("keeps at most maxEntries", () => {
    const cache = new PrincipalCache(1000, 2);
    for (const sid of ["a", "b", "c"]) cache.set(sid, session("u"), cache.generation("u"));
    expect(cache.size).toBe(2);
    expect(cache.get("a")).toBeUndefined();
  });
});

function sessionOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as { sid: string };
  return payload.sid;
}

/**
 * Two instances on one database caching sessions for `cacheMs`, with the admin signed in
 * through A and cached by B. B caches only once its LISTEN connection is up (it connects in
 * the background), so this waits for that, with a deadline.
 */
async function startCachingPair(cacheMs: number): Promise<{ a: TestServer; b: TestServer; admin: SignedIn }> {
  const [a, b] = await startInstances(2, { SESSION_CACHE_MS: String(cacheMs) });
  const admin = await a.signIn();
  for (const until = Date.now() + 30_000; Date.now() < until; ) {
    await b.api("GET", "/api/users/me", { token: admin.accessToken });
    if (b.ctx.principals.size > 0) break;
    await sleep(100);
  }
  expect(b.ctx.principals.size).toBeGreaterThan(0);
  return { a, b, admin };
}
