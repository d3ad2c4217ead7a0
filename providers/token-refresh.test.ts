import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TokenPair } from "../schemas/auth";
import { MemoryStorage } from "../src/lib/memory-storage";
import { type TestServer, withTestServer } from "./test-support";
import { createRefresher, createRefreshLoop, SingleFlight, TokenRefreshError } from "./token-refresh";
import { createTokenStore, type TokenStore } from "./token-store";

function memoryStore(now: () => number = Date.now): TokenStore {
  const jar = new Map<string, string>();
  const storage = new MemoryStorage();
  return createTokenStore({
    cookies: {
      get: (name) => jar.get(name),
      set: (name, value) => void jar.set(name, value),
      remove: (name) => void jar.delete(name),
    },
    storage: () => storage,
    now,
  });
}

const pair = (accessToken: string, expiry: number, durationSeconds = 900): TokenPair => ({
  accessToken,
  accessTokenExpiry: expiry,
  accessTokenDuration: durationSeconds,
  refreshToken: `refresh-of-${accessToken}`,
  refreshTokenExpiry: expiry + 86_400_000,
  refreshTokenDuration: 86_400,
});

describe("SingleFlight", () => {
  it("shares one run between concurrent callers and starts anew afterwards", async () => {
    let runs = 0;
    const flight = new SingleFlight(async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return runs;
    });
    const [a, b] = await Promise.all([flight.run(), flight.run()]);
    expect([a, b]).toEqual([1, 1]);
    expect(flight.pending).toBeNull();
    expect(await flight.run()).toBe(2);
  });

  it("turns a synchronous throw into a rejection and recovers", async () => {
    let fail = true;
    const flight = new SingleFlight<string>(() => {
      if (fail) throw new Error("sync");
      return Promise.resolve("ok");
    });
    await expect(flight.run()).rejects.toThrow("sync");
    fail = false;
    await expect(flight.run()).resolves.toBe("ok");
  });
});

describe("createRefresher (real HTTP)", () => {
  let server: TestServer;
  withTestServer((started) => {
    server = started;
  });

  it("POSTs { refreshToken }, saves the pair on 200 and resolves with the access token", async () => {
    const fresh = pair("access-2", Date.now() + 900_000);
    server.handle(() => ({ status: 200, body: fresh }));
    const store = memoryStore();
    store.saveTokens(pair("access-1", Date.now()));
    const refresh = createRefresher({ url: `${server.url}/api/auth/refreshtokenapp`, store });

    await expect(refresh()).resolves.toBe("access-2");

    expect(server.requests).toEqual([
      {
        method: "POST",
        path: "/api/auth/refreshtokenapp",
        authorization: undefined,
        body: { refreshToken: "refresh-of-access-1" },
      },
    ]);
    expect(store.getAccessToken()).toBe("access-2");
    expect(store.getRefreshToken()).toBe("refresh-of-access-2");
    expect(store.getAccessTokenExpiry()).toBe(fresh.accessTokenExpiry);
  });

  it("shares one request between concurrent callers", async () => {
    server.handle(() => ({ status: 200, body: pair("access-2", Date.now() + 900_000), delayMs: 30 }));
    const store = memoryStore();
    store.saveTokens(pair("access-1", Date.now()));
    const refresh = createRefresher({ url: `${server.url}/refresh`, store });
    expect(await Promise.all([refresh(), refresh(), refresh()])).toEqual([
      "access-2",
      "access-2",
      "access-2",
    ]);
    expect(server.count("/refresh")).toBe(1);
  });

  it.each([
    [401, { statusCode: 401, message: "Invalid refresh token" }],
    [201, pair("access-2", 1)],
    [200, { message: "no token here" }],
  ])("rejects with TokenRefreshError on status %i with %j, saving nothing", async (status, body) => {
    server.handle(() => ({ status, body }));
    const store = memoryStore();
    store.saveTokens(pair("access-1", 1));
    const refresh = createRefresher({ url: `${server.url}/refresh`, store });
    const error = await refresh().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRefreshError);
    expect((error as TokenRefreshError).status).toBe(status);
    expect(store.getAccessToken()).toBe("access-1");
  });

  it("rejects without calling the server when there is no refresh token", async () => {
    const refresh = createRefresher({ url: `${server.url}/refresh`, store: memoryStore() });
    await expect(refresh()).rejects.toBeInstanceOf(TokenRefreshError);
    expect(server.requests).toHaveLength(0);
  });
});

describe("createRefreshLoop", () => {
  const NOW = 1_700_000_000_000;
  const MINUTE = 60_000;

  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  /** A refresh that issues a token living `lifetimeMs` from now. */
  const issuing = (store: TokenStore, lifetimeMs: number) => {
    let n = 1;
    return vi.fn(async () => {
      n++;
      store.saveTokens(pair(`access-${n}`, Date.now() + lifetimeMs, lifetimeMs / 1000));
      return `access-${n}`;
    });
  };

  it("refreshes 1 minute before each expiry, rescheduling after every new token", async () => {
    const store = memoryStore();
    store.saveTokens(pair("access-1", NOW + 15 * MINUTE));
    const refresh = issuing(store, 15 * MINUTE);
    const stop = createRefreshLoop({ store, refresh, onSessionEnded: vi.fn() });

    await vi.advanceTimersByTimeAsync(14 * MINUTE - 1);
    expect(refresh).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(14 * MINUTE);
    expect(refresh).toHaveBeenCalledTimes(2);

    stop();
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it("with 5-second tokens refreshes every 2.5 seconds, not in a tight loop", async () => {
    const store = memoryStore();
    store.saveTokens(pair("access-1", NOW + 5_000, 5));
    const refresh = issuing(store, 5_000);
    const stop = createRefreshLoop({ store, refresh, onSessionEnded: vi.fn() });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresh).toHaveBeenCalledTimes(4);
    stop();
  });

  it("reschedules when someone else saves tokens (sign-in, a 417 retry)", async () => {
    const store = memoryStore();
    const refresh = issuing(store, 15 * MINUTE);
    const stop = createRefreshLoop({ store, refresh, onSessionEnded: vi.fn() });
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(refresh).not.toHaveBeenCalled();

    store.saveTokens(pair("signed-in", Date.now() + 2 * MINUTE));
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(refresh).toHaveBeenCalledTimes(1);
    stop();
  });

  it("ends the session when the server refuses the refresh", async () => {
    const store = memoryStore();
    store.saveTokens(pair("access-1", NOW));
    const onSessionEnded = vi.fn();
    const stop = createRefreshLoop({
      store,
      refresh: () => Promise.reject(new TokenRefreshError("Token refresh answered 401", 401)),
      onSessionEnded,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    stop();
  });

  it("only warns on a network failure", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const store = memoryStore();
    store.saveTokens(pair("access-1", NOW));
    const onSessionEnded = vi.fn();
    const stop = createRefreshLoop({
      store,
      refresh: () => Promise.reject(new Error("offline")),
      onSessionEnded,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(onSessionEnded).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
    stop();
  });
});
