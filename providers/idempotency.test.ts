import axios, { AxiosError, AxiosHeaders } from "axios";
import { describe, expect, it, vi } from "vitest";
import { createDataProvider } from "./data-provider";
import { createHttpClient } from "./http";
import { createRetryDelayMs, MAX_CREATE_ATTEMPTS, newIdempotencyKey } from "./idempotency";
import { type Handler, type TestServer, withTestServer } from "./test-support";

let server: TestServer;
withTestServer((started) => {
  server = started;
});

/** A client wired like the browser's, whose waits are recorded instead of slept. */
function setup() {
  const session = { token: "old" };
  const waits: number[] = [];
  const client = createHttpClient({
    baseURL: server.url,
    getAccessToken: () => session.token,
    refresh: async () => {
      session.token = "new";
      return "new";
    },
    onLogout: vi.fn(),
    logError: vi.fn(),
    wait: async (ms) => {
      waits.push(ms);
    },
  });
  return { client, waits, provider: createDataProvider(client, "/api") };
}

const keysOf = (path: string) => server.requests.filter((r) => r.path === path).map((r) => r.idempotencyKey);

describe("newIdempotencyKey", () => {
  it("gives 32 hex characters, different every time", () => {
    const keys = new Set(Array.from({ length: 1000 }, newIdempotencyKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("createRetryDelayMs", () => {
  const answer = (status: number, headers: Record<string, string> = {}) =>
    new AxiosError("failed", "ERR_BAD_REQUEST", undefined, null, {
      status,
      statusText: "",
      data: {},
      headers,
      config: { headers: new AxiosHeaders() },
    });
  const network = new AxiosError("socket hang up", "ECONNRESET");

  it("resends after a network failure, waiting longer each time, at most MAX_CREATE_ATTEMPTS sends", () => {
    expect(createRetryDelayMs(network, 1)).toBe(1000);
    expect(createRetryDelayMs(network, 2)).toBe(2000);
    expect(createRetryDelayMs(network, MAX_CREATE_ATTEMPTS)).toBeNull();
  });

  it("resends a 409 that says when (the first send is still running), and nothing else", () => {
    expect(createRetryDelayMs(answer(409, { "retry-after": "1" }), 1)).toBe(1000);
    expect(createRetryDelayMs(answer(409, { "retry-after": "3600" }), 1)).toBe(10_000);
    expect(createRetryDelayMs(answer(409), 1)).toBeNull(); // a unique value taken: final
    expect(createRetryDelayMs(answer(400), 1)).toBeNull();
    expect(createRetryDelayMs(answer(422), 1)).toBeNull();
    expect(createRetryDelayMs(answer(500), 1)).toBeNull();
    expect(createRetryDelayMs(new axios.CanceledError("cancelled"), 1)).toBeNull();
    expect(createRetryDelayMs(new Error("not axios"), 1)).toBeNull();
  });
});

describe("a create through the data provider", () => {
  it("sends an Idempotency-Key, a new one per create", async () => {
    server.handle(() => ({ status: 201, body: { id: "1" } }));
    const { provider } = setup();
    await provider.create({ resource: "things", variables: { name: "a" } });
    await provider.create({ resource: "things", variables: { name: "a" } });
    const keys = keysOf("/api/things");
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it("reuses its key on the retry after a 417 and the token refresh", async () => {
    const handler: Handler = (request) =>
      request.authorization === "Bearer new"
        ? { status: 201, body: { id: "made" } }
        : { status: 417, body: { statusCode: 417, message: "Token expired" } };
    server.handle(handler);
    const { provider } = setup();
    const { data } = await provider.create({ resource: "things", variables: { name: "a" } });
    expect(data).toEqual({ id: "made" });
    const sent = server.requests.filter((r) => r.path === "/api/things");
    expect(sent.map((r) => r.authorization)).toEqual(["Bearer old", "Bearer new"]);
    expect(sent[0].idempotencyKey).toBeDefined();
    expect(sent[1].idempotencyKey).toBe(sent[0].idempotencyKey);
    expect(sent.map((r) => r.body)).toEqual([{ name: "a" }, { name: "a" }]);
  });

  it("is resent with the same key after a network failure, and while the server still runs the first", async () => {
    let calls = 0;
    server.handle(() => {
      calls += 1;
      if (calls === 1) return { status: 200, hangUp: true };
      if (calls === 2)
        return { status: 409, headers: { "retry-after": "1" }, body: { message: "still being processed" } };
      return { status: 201, body: { id: "once" } };
    });
    const { provider, waits } = setup();
    const { data } = await provider.create({ resource: "things", variables: { name: "b" } });
    expect(data).toEqual({ id: "once" });
    const keys = keysOf("/api/things");
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(waits).toEqual([1000, 1000]);
  });

  it("gives up after MAX_CREATE_ATTEMPTS sends and reports the failure", async () => {
    server.handle(() => ({ status: 200, hangUp: true }));
    const { provider } = setup();
    const error = await provider
      .create({ resource: "things", variables: { name: "c" } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 0 });
    expect(keysOf("/api/things")).toHaveLength(MAX_CREATE_ATTEMPTS);
  });

  it("leaves other requests alone: no key, no resend", async () => {
    server.handle(() => ({ status: 200, hangUp: true }));
    const { provider } = setup();
    await provider.update({ resource: "things", id: "1", variables: { name: "d" } }).catch(() => undefined);
    const sent = server.requests.filter((r) => r.path === "/api/things/1");
    expect(sent).toHaveLength(1);
    expect(sent[0].idempotencyKey).toBeUndefined();
  });
});
