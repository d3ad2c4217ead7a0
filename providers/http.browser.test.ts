/**
 * The browser instances of http.ts (`http`, `performRefresh`, `forceLogout`,
 * `logoutRequest`, `startTokenRefresh`) wired to the real token store and js-cookie, with
 * the API base pointed at a real local server. Each test loads fresh modules so the
 * once-only logout guard and the build-time bases start clean.
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { TokenPair } from "../schemas/auth";
import { MemoryStorage } from "../src/lib/memory-storage";
import { CookieDocument, type TestServer, withTestServer } from "./test-support";

let server: TestServer;
let doc: CookieDocument;
let storage: MemoryStorage;
let session: MemoryStorage;
let assign: ReturnType<typeof vi.fn>;

const pair = (accessToken: string, expiry = Date.now() + 900_000): TokenPair => ({
  accessToken,
  accessTokenExpiry: expiry,
  accessTokenDuration: 900,
  refreshToken: `refresh-of-${accessToken}`,
  refreshTokenExpiry: Date.now() + 86_400_000,
  refreshTokenDuration: 86_400,
});

async function load(pathname = "/manage/pdf") {
  doc = new CookieDocument();
  storage = new MemoryStorage();
  session = new MemoryStorage();
  assign = vi.fn();
  vi.stubGlobal("document", doc);
  vi.stubGlobal("localStorage", storage);
  vi.stubGlobal("sessionStorage", session);
  vi.stubGlobal("window", { location: { pathname, assign } });
  vi.stubEnv("VITE_API_BASE", server.url);
  vi.resetModules();
  const http = await import("./http");
  const store = await import("./token-store");
  return { ...http, ...store };
}

withTestServer((started) => {
  server = started;
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

// The unit project shares modules between files (vitest.config.ts): the next file must not get
// this file's copies, made under a stubbed VITE_API_BASE.
afterAll(() => {
  vi.resetModules();
});

describe("http (browser instance)", () => {
  it("sends the cookie's token, refreshes through /api/auth/refreshtokenapp on 417 and stores the new pair", async () => {
    const { http, saveTokens, getAccessToken, getRefreshToken } = await load();
    saveTokens(pair("old"));
    server.handle((request) => {
      if (request.path === "/api/auth/refreshtokenapp") return { status: 200, body: pair("new") };
      return request.authorization === "Bearer new" ? { status: 200, body: { id: 1 } } : { status: 417 };
    });

    const results = await Promise.all([http.get("/api/users/me"), http.get("/api/modules")]);

    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(server.count("/api/auth/refreshtokenapp")).toBe(1);
    expect(server.requests.find((r) => r.path === "/api/auth/refreshtokenapp")?.body).toEqual({
      refreshToken: "refresh-of-old",
    });
    expect(getAccessToken()).toBe("new");
    expect(getRefreshToken()).toBe("refresh-of-new");
  });

  it("a service client shares the rules", async () => {
    const { createServiceClient, saveTokens } = await load();
    saveTokens(pair("tok"));
    server.handle(() => ({ status: 200, body: {} }));
    const cms = createServiceClient("cms");
    expect(cms.defaults.baseURL).toBe("/cms");
    await cms.get(`${server.url}/cms/types`);
    expect(server.requests[0].authorization).toBe("Bearer tok");
  });

  it("on 401 clears the session (keeping device_id) and goes to /manage/login once", async () => {
    const { http, saveTokens, getAccessToken } = await load();
    saveTokens(pair("tok"));
    storage.setItem("device_id", "dev-1");
    storage.setItem("currency", "EUR");
    server.handle(() => ({ status: 401 }));

    await Promise.all([http.get("/a").catch(() => undefined), http.get("/b").catch(() => undefined)]);

    expect(getAccessToken()).toBeUndefined();
    expect(storage.getItem("currency")).toBeNull();
    expect(storage.getItem("device_id")).toBe("dev-1");
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith("/manage/login");
  });

  it("on a refused refresh logs out and rejects with 'Unable to refresh token'", async () => {
    const { http, saveTokens } = await load();
    saveTokens(pair("old"));
    server.handle((request) => ({ status: request.path === "/api/auth/refreshtokenapp" ? 401 : 417 }));

    await expect(http.get("/api/users/me")).rejects.toThrow("Unable to refresh token");
    expect(assign).toHaveBeenCalledWith("/manage/login");
    expect(session.getItem("atelier.sessionEnd")).toBe("refresh-failed");
  });

  it("tells the sign-in screen why: a 406 of a disabled account, or of a device signed out", async () => {
    for (const [message, reason] of [
      ["This account is disabled", "disabled"],
      ["You were signed out on this device", "device-signed-out"],
    ]) {
      const { http, saveTokens } = await load();
      saveTokens(pair("tok"));
      server.handle(() => ({ status: 406, body: { statusCode: 406, error: "Not Acceptable", message } }));
      await expect(http.get("/api/users/me")).rejects.toThrow();
      expect(assign).toHaveBeenCalledWith("/manage/login");
      expect(session.getItem("atelier.sessionEnd")).toBe(reason);
    }
  });

  it("a refresh refused with 406 carries the server's reason, not 'Unable to refresh token'", async () => {
    const { http, saveTokens } = await load();
    saveTokens(pair("old"));
    server.handle((request) =>
      request.path === "/api/auth/refreshtokenapp"
        ? { status: 406, body: { statusCode: 406, message: "This account is disabled" } }
        : { status: 417 },
    );
    await expect(http.get("/api/users/me")).rejects.toThrow("Unable to refresh token");
    expect(session.getItem("atelier.sessionEnd")).toBe("disabled");
  });

  it("a plain 401 signs out without a reason to show", async () => {
    const { http, saveTokens } = await load();
    saveTokens(pair("tok"));
    server.handle(() => ({ status: 401 }));
    await expect(http.get("/api/users/me")).rejects.toThrow();
    expect(assign).toHaveBeenCalledWith("/manage/login");
    expect(session.getItem("atelier.sessionEnd")).toBeNull();
  });
});

describe("forceLogout", () => {
  it("runs once", async () => {
    const { forceLogout } = await load();
    forceLogout();
    forceLogout();
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it("on the sign-in screen only clears the session, so it cannot reload in a loop", async () => {
    const { forceLogout, saveTokens, hasSession } = await load("/manage/login");
    saveTokens(pair("tok"));
    forceLogout();
    expect(hasSession()).toBe(false);
    expect(assign).not.toHaveBeenCalled();
  });
});

describe("logoutRequest", () => {
  const deviceInfo = { deviceId: "1/dev", deviceName: "Linux Chrome" };

  it("POSTs the device info to /clients/logout with the bearer token", async () => {
    const { logoutRequest, saveTokens } = await load();
    saveTokens(pair("tok"));
    server.handle(() => ({ status: 204 }));
    await logoutRequest(deviceInfo);
    expect(server.requests).toEqual([
      { method: "POST", path: "/clients/logout", authorization: "Bearer tok", body: { deviceInfo } },
    ]);
  });

  it("is a keepalive fetch, sent with the token of the moment, so clearing the session right after is safe", async () => {
    const { logoutRequest, saveTokens, clearSession } = await load();
    saveTokens(pair("tok"));
    server.handle(() => ({ status: 204 }));
    const send = vi.fn<typeof fetch>((...args) => fetch(...args));
    const sent = logoutRequest(deviceInfo, server.url, send);
    clearSession();
    await sent;
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0][1]).toMatchObject({ method: "POST", keepalive: true });
    expect(server.requests).toEqual([
      { method: "POST", path: "/clients/logout", authorization: "Bearer tok", body: { deviceInfo } },
    ]);
  });

  it("only logs a failure, and a 401 does not trigger a logout redirect", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const { logoutRequest, saveTokens } = await load();
    saveTokens(pair("tok"));
    server.handle(() => ({ status: 401 }));
    await expect(logoutRequest(deviceInfo)).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledTimes(1);
    expect(assign).not.toHaveBeenCalled();
    error.mockRestore();
  });
});

describe("startTokenRefresh", () => {
  it("refreshes through the API before the stored expiry", async () => {
    const { startTokenRefresh, saveTokens, getAccessToken } = await load();
    saveTokens({ ...pair("old", Date.now() + 2_000), accessTokenDuration: 2 });
    server.handle(() => ({
      status: 200,
      body: { ...pair("new", Date.now() + 60_000), accessTokenDuration: 60 },
    }));

    const stop = startTokenRefresh();
    await vi.waitFor(() => expect(getAccessToken()).toBe("new"), { timeout: 3_000 });
    stop();
    expect(server.count("/api/auth/refreshtokenapp")).toBe(1);
  });
});
