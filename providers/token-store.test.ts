import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TokenPair } from "../schemas/auth";
import { MemoryStorage } from "../src/lib/memory-storage";
import { CookieDocument } from "./test-support";
import {
  ACCESS_TOKEN_COOKIE,
  clearSession,
  createTokenStore,
  getAccessToken,
  getAccessTokenExpiry,
  getAccessTokenLifetimeMs,
  getRefreshToken,
  getRefreshTokenExpiry,
  hasSession,
  onTokensSaved,
  REFRESH_TOKEN_COOKIE,
  saveTokens,
} from "./token-store";

const NOW = Date.UTC(2025, 0, 1);

const pair = (overrides: Partial<TokenPair> = {}): TokenPair => ({
  accessToken: "access-1",
  accessTokenExpiry: NOW + 15 * 60_000,
  accessTokenDuration: 900,
  refreshToken: "refresh-1",
  refreshTokenExpiry: NOW + 30 * 86_400_000,
  refreshTokenDuration: 30 * 86_400,
  ...overrides,
});

describe("token store in a browser-like environment (js-cookie + localStorage)", () => {
  let doc: CookieDocument;
  let storage: MemoryStorage;

  beforeEach(() => {
    doc = new CookieDocument();
    storage = new MemoryStorage();
    vi.stubGlobal("document", doc);
    vi.stubGlobal("localStorage", storage);
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("stores both tokens in cookies for one year, site-wide, same-site strict", () => {
    saveTokens(pair());
    expect(getAccessToken()).toBe("access-1");
    expect(getRefreshToken()).toBe("refresh-1");

    for (const name of [ACCESS_TOKEN_COOKIE, REFRESH_TOKEN_COOKIE]) {
      const write = doc.lastWrite(name) ?? "";
      expect(write).toContain("; path=/");
      expect(write).toContain("; sameSite=strict");
      expect(write).not.toContain("secure");
      const expires = /expires=([^;]+)/.exec(write)?.[1] ?? "";
      expect(Date.parse(expires)).toBe(new Date(NOW + 365 * 86_400_000).setUTCMilliseconds(0));
    }
  });

  it("marks the cookies Secure over HTTPS", () => {
    vi.stubGlobal("location", { protocol: "https:" });
    saveTokens(pair());
    expect(doc.lastWrite(ACCESS_TOKEN_COOKIE)).toContain("; secure");
  });

  it("keeps the expiry times in localStorage as epoch ms strings", () => {
    saveTokens(pair());
    expect(storage.getItem("accessTokenExpiry")).toBe(String(NOW + 15 * 60_000));
    expect(storage.getItem("refreshTokenExpiry")).toBe(String(NOW + 30 * 86_400_000));
    expect(getAccessTokenExpiry()).toBe(NOW + 15 * 60_000);
    expect(getRefreshTokenExpiry()).toBe(NOW + 30 * 86_400_000);
    expect(getAccessTokenLifetimeMs()).toBe(900_000);
  });

  it("keeps the old refresh token when a refresh answer carries none", () => {
    saveTokens(pair());
    saveTokens(pair({ accessToken: "access-2", refreshToken: "" }));
    expect(getAccessToken()).toBe("access-2");
    expect(getRefreshToken()).toBe("refresh-1");
  });

  it("clearSession removes both cookies and clears localStorage but keeps device_id and buildDateTime", () => {
    storage.setItem("device_id", "device-123");
    storage.setItem("buildDateTime", "2025-01-01T00:00:00Z");
    storage.setItem("currency", "EUR");
    saveTokens(pair());
    expect(hasSession()).toBe(true);

    clearSession();

    expect(getAccessToken()).toBeUndefined();
    expect(getRefreshToken()).toBeUndefined();
    expect(doc.jar.size).toBe(0);
    expect(hasSession()).toBe(false);
    expect(getAccessTokenExpiry()).toBeNull();
    expect(storage.getItem("currency")).toBeNull();
    expect(storage.getItem("device_id")).toBe("device-123");
    expect(storage.getItem("buildDateTime")).toBe("2025-01-01T00:00:00Z");
    expect(storage.length).toBe(2);
  });

  it("has no session before sign-in", () => {
    expect(hasSession()).toBe(false);
    expect(getAccessTokenExpiry()).toBeNull();
    expect(getAccessTokenLifetimeMs()).toBeNull();
  });

  it("tells subscribers about every save until they unsubscribe", () => {
    const listener = vi.fn();
    const stop = onTokensSaved(listener);
    saveTokens(pair());
    stop();
    saveTokens(pair());
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith(pair());
  });
});

describe("createTokenStore", () => {
  const memoryJar = () => {
    const jar = new Map<string, string>();
    return {
      jar,
      cookies: {
        get: (name: string) => jar.get(name),
        set: (name: string, value: string) => void jar.set(name, value),
        remove: (name: string) => void jar.delete(name),
      },
    };
  };

  it("derives expiry times from durations when a pair has none", () => {
    const { cookies } = memoryJar();
    const storage = new MemoryStorage();
    const store = createTokenStore({ cookies, storage: () => storage, now: () => 1_000 });
    store.saveTokens(
      pair({ accessTokenExpiry: Number.NaN, refreshTokenExpiry: Number.NaN, accessTokenDuration: 5 }),
    );
    expect(store.getAccessTokenExpiry()).toBe(6_000);
    expect(store.getRefreshTokenExpiry()).toBe(1_000 + 30 * 86_400_000);
    expect(store.getAccessTokenLifetimeMs()).toBe(5_000);
  });

  it("keeps working with cookies only when storage is unavailable or throws", () => {
    const { cookies } = memoryJar();
    const store = createTokenStore({
      cookies,
      storage: () => {
        throw new DOMException("denied", "SecurityError");
      },
    });
    store.saveTokens(pair());
    expect(store.getAccessToken()).toBe("access-1");
    expect(store.getAccessTokenExpiry()).toBeNull();
    store.clearSession();
    expect(store.hasSession()).toBe(false);
  });

  it("ignores unreadable stored expiry values", () => {
    const { cookies } = memoryJar();
    const storage = new MemoryStorage();
    storage.setItem("accessTokenExpiry", "soon");
    const store = createTokenStore({ cookies, storage: () => storage });
    expect(store.getAccessTokenExpiry()).toBeNull();
  });
});
