import { describe, expect, it } from "vitest";
import { MemoryStorage } from "../src/lib/memory-storage";
import {
  createEarlyReads,
  EARLY_FRESH_MS,
  EARLY_READS_KEY,
  LEARN_MS,
  MAX_SCREENS,
  READ_HERE_MS,
} from "./early-reads";
import { createHttpClient } from "./http";
import { type TestServer, withTestServer } from "./test-support";

let server: TestServer;
withTestServer((started) => {
  server = started;
});

function setup() {
  const clock = { now: 1_000 };
  const storage = new MemoryStorage();
  const early = createEarlyReads({ storage, send: (...args) => fetch(...args), now: () => clock.now });
  const client = createHttpClient({
    baseURL: server.url,
    getAccessToken: () => "token-1",
    refresh: async () => "token-2",
    onLogout: () => undefined,
    early,
  });
  return { clock, storage, early, client };
}

const rows = (path: string) => ({ status: 200, body: { data: [{ id: path }], total: 1 } });

describe("early reads", () => {
  it("answers a screen's GETs from the reads the shell started, learnt from the last start there", async () => {
    server.handle((request) => rows(request.path));
    const first = setup();
    first.early.start("/manage/products/products", "token-1", [`${server.url}/api/users/me`]);
    // The app starts and reads, with nothing remembered yet but the identity.
    await first.client.get("/api/users/me");
    await first.client.get("/api/products", { params: { page: 1, pageSize: 25 } });
    expect(server.count("/api/users/me")).toBe(1);
    expect(server.count("/api/products?page=1&pageSize=25")).toBe(1);

    // The next start on that address sends both at once; the app's own GETs are answered by them.
    const next = setup();
    next.storage.setItem(EARLY_READS_KEY, first.storage.getItem(EARLY_READS_KEY) ?? "");
    server.requests.length = 0;
    next.early.start("/manage/products/products", "token-1", [`${server.url}/api/users/me`]);
    await expect.poll(() => server.requests.length).toBe(2);
    expect(server.requests.every((r) => r.authorization === "Bearer token-1")).toBe(true);
    const list = await next.client.get("/api/products", { params: { page: 1, pageSize: 25 } });
    expect(list.data).toEqual({ data: [{ id: "/api/products?page=1&pageSize=25" }], total: 1 });
    await next.client.get("/api/users/me");
    expect(server.requests).toHaveLength(2);
    // Taken once: asked again, it goes to the server.
    await next.client.get("/api/users/me");
    expect(server.count("/api/users/me")).toBe(2);
  });

  it("sends an address's remembered reads as the app moves there (a link clicked), once, and learns there", async () => {
    server.handle((request) => rows(request.path));
    const { early, client, storage } = setup();
    const list = `${server.url}/api/products?page=1`;
    storage.setItem(EARLY_READS_KEY, JSON.stringify({ "/manage/products/products": [list] }));
    early.moveTo("/manage/products/products", "token-1");
    // A second click while the first read is on its way sends nothing more.
    early.moveTo("/manage/products/products", "token-1");
    await expect.poll(() => server.count("/api/products?page=1")).toBe(1);
    expect((await client.get("/api/products", { params: { page: 1 } })).data).toEqual(
      rows("/api/products?page=1").body,
    );
    expect(server.count("/api/products?page=1")).toBe(1);
    // What the screen reads there is remembered for the next move.
    await client.get("/api/categories");
    expect(JSON.parse(storage.getItem(EARLY_READS_KEY) ?? "{}")).toEqual({
      "/manage/products/products": [list, `${server.url}/api/categories`],
    });
    // Nothing remembered for an address: nothing sent.
    server.requests.length = 0;
    early.moveTo("/manage/users", "token-1");
    await client.get("/api/users");
    expect(server.requests.map((r) => r.path)).toEqual(["/api/users"]);
  });

  it("does not send again on a move what the app read on this page a moment ago", async () => {
    server.handle((request) => rows(request.path));
    const { early, client, storage, clock } = setup();
    const me = `${server.url}/api/users/me`;
    const list = `${server.url}/api/products?page=1`;
    storage.setItem(EARLY_READS_KEY, JSON.stringify({ "/manage/products/products": [me, list] }));
    await client.get("/api/users/me");
    server.requests.length = 0;
    early.moveTo("/manage/products/products", "token-1");
    await expect.poll(() => server.count("/api/products?page=1")).toBe(1);
    expect(server.requests.map((r) => r.path)).toEqual(["/api/products?page=1"]);
    // Read longer ago than that: sent with the others.
    clock.now += READ_HERE_MS + 1;
    server.requests.length = 0;
    early.moveTo("/manage/products/products", "token-1");
    await expect.poll(() => server.count("/api/users/me")).toBe(1);
  });

  it("sends to the server what an early read cannot answer: a failure, a stale answer, another URL", async () => {
    let status = 417;
    server.handle(() => ({ status, body: status === 200 ? { ok: true } : { message: "expired" } }));
    const { early, client, clock } = setup();
    early.start("/manage/", "old", [`${server.url}/a`, `${server.url}/b`]);
    await expect.poll(() => server.requests.length).toBe(2);
    status = 200;
    // A 417 early answer is not used: the request goes out as usual (and succeeds).
    expect((await client.get("/a")).data).toEqual({ ok: true });
    expect(server.count("/a")).toBe(2);
    // Stale: asked again.
    clock.now += EARLY_FRESH_MS + 1;
    await client.get("/b");
    expect(server.count("/b")).toBe(2);
    // Not started: sent.
    await client.get("/c");
    expect(server.count("/c")).toBe(1);
  });

  it("learns only GETs of the first seconds, without secrets, for a few addresses", async () => {
    server.handle(() => ({ status: 200, body: {} }));
    const { early, client, clock, storage } = setup();
    early.start("/manage/users", "t", []);
    await client.get("/api/users", { params: { page: 1 } });
    await client.post("/api/users", { name: "x" });
    await client.get("/api/reset", { params: { token: "secret-value" } });
    clock.now += LEARN_MS + 1;
    await client.get("/api/late");
    const learnt = JSON.parse(storage.getItem(EARLY_READS_KEY) ?? "{}");
    expect(learnt).toEqual({ "/manage/users": [`${server.url}/api/users?page=1`] });

    for (let n = 0; n < MAX_SCREENS + 5; n++) {
      early.start(`/manage/screen-${n}`, "t", []);
      early.sent(`/api/screen-${n}`);
    }
    const kept = Object.keys(JSON.parse(storage.getItem(EARLY_READS_KEY) ?? "{}"));
    expect(kept).toHaveLength(MAX_SCREENS);
    expect(kept.at(-1)).toBe(`/manage/screen-${MAX_SCREENS + 4}`);
    expect(kept).not.toContain("/manage/users");
  });
});
