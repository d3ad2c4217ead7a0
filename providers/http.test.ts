import { AxiosError } from "axios";
import { describe, expect, it, vi } from "vitest";
import { UNABLE_TO_REFRESH } from "../src/lib/constants";
import { createHttpClient, type LogoutReason } from "./http";
import { type Handler, type TestServer, withTestServer } from "./test-support";

let server: TestServer;

withTestServer((started) => {
  server = started;
});

/**
 * A client wired as the browser's is, but to the test server: the "cookie" is a variable,
 * and refresh is a real POST to /refresh that stores the token it gets.
 */
function setup(initialToken: string | null = "old") {
  const session = { token: initialToken ?? undefined };
  const onLogout = vi.fn<(reason: LogoutReason) => void>();
  const logError = vi.fn<(message: string) => void>();
  const client = createHttpClient({
    baseURL: server.url,
    getAccessToken: () => session.token,
    refresh: async () => {
      const response = await fetch(`${server.url}/refresh`, { method: "POST" });
      if (response.status !== 200) throw new Error(`refresh answered ${response.status}`);
      const { token } = (await response.json()) as { token: string };
      session.token = token;
      return token;
    },
    onLogout,
    logError,
  });
  return { client, session, onLogout, logError };
}

/** /data answers 200 for "Bearer new" and 417 otherwise; /refresh hands out "new". */
const expiringToken =
  (refreshDelayMs = 50): Handler =>
  (request) => {
    if (request.path === "/refresh") return { status: 200, body: { token: "new" }, delayMs: refreshDelayMs };
    if (request.authorization === "Bearer new") return { status: 200, body: { ok: request.path } };
    return { status: 417, body: { statusCode: 417, error: "Expectation Failed", message: "Token expired" } };
  };

const statusOf = (error: unknown) => (error instanceof AxiosError ? error.response?.status : undefined);

describe("Authorization header", () => {
  it("is sent as a Bearer token when a token is present", async () => {
    server.handle(() => ({ status: 200, body: {} }));
    const { client } = setup("abc");
    await client.get("/data");
    expect(server.requests[0].authorization).toBe("Bearer abc");
  });

  it("is left out when there is no token", async () => {
    server.handle(() => ({ status: 200, body: {} }));
    const { client } = setup(null);
    await client.get("/data");
    expect(server.requests[0].authorization).toBeUndefined();
  });
});

describe("417: refresh once, retry once", () => {
  it("three concurrent 417s cause exactly one refresh and all three succeed with the new token", async () => {
    server.handle(expiringToken());
    const { client, onLogout } = setup();

    const results = await Promise.all([client.get("/data/1"), client.get("/data/2"), client.get("/data/3")]);

    expect(results.map((r) => r.data)).toEqual([{ ok: "/data/1" }, { ok: "/data/2" }, { ok: "/data/3" }]);
    expect(server.count("/refresh")).toBe(1);
    for (const path of ["/data/1", "/data/2", "/data/3"]) {
      const tries = server.requests.filter((r) => r.path === path).map((r) => r.authorization);
      expect(tries).toEqual(["Bearer old", "Bearer new"]);
    }
    expect(onLogout).not.toHaveBeenCalled();
  });

  it("retries a POST with its body", async () => {
    server.handle(expiringToken());
    const { client } = setup();
    await client.post("/data/save", { name: "Ada" });
    const posts = server.requests.filter((r) => r.path === "/data/save");
    expect(posts.map((r) => r.body)).toEqual([{ name: "Ada" }, { name: "Ada" }]);
  });

  it("a retried request that gets 417 again is not refreshed a second time", async () => {
    server.handle((request) =>
      request.path === "/refresh" ? { status: 200, body: { token: "new" } } : { status: 417, body: {} },
    );
    const { client, onLogout } = setup();

    const error = await client.get("/data").catch((e: unknown) => e);

    expect(statusOf(error)).toBe(417);
    expect(server.count("/refresh")).toBe(1);
    expect(server.count("/data")).toBe(2);
    expect(onLogout).not.toHaveBeenCalled();
  });

  it("a request made while a refresh runs waits for it and goes out with the new token", async () => {
    server.handle(expiringToken(150));
    const { client } = setup();

    const first = client.get("/data/first");
    await vi.waitFor(() => expect(server.count("/refresh")).toBe(1));
    const late = await client.get("/data/late");
    await first;

    expect(late.data).toEqual({ ok: "/data/late" });
    expect(server.requests.filter((r) => r.path === "/data/late").map((r) => r.authorization)).toEqual([
      "Bearer new",
    ]);
    expect(server.count("/refresh")).toBe(1);
  });

  it("a 417 arriving after another request already refreshed reuses the new token", async () => {
    server.handle((request) => {
      if (request.path === "/data/slow" && request.authorization === "Bearer old")
        return { status: 417, delayMs: 300 };
      return expiringToken(0)(request);
    });
    const { client } = setup();

    const slow = client.get("/data/slow");
    await client.get("/data/fast");
    expect(server.count("/refresh")).toBe(1);
    expect((await slow).data).toEqual({ ok: "/data/slow" });
    expect(server.count("/refresh")).toBe(1);
  });

  it("a second expiry later triggers a new refresh", async () => {
    let generation = 1;
    server.handle((request) => {
      if (request.path === "/refresh") return { status: 200, body: { token: `t${++generation}` } };
      return request.authorization === `Bearer t${generation}` ? { status: 200, body: {} } : { status: 417 };
    });
    const { client, session } = setup("t0");
    await client.get("/data");
    expect(session.token).toBe("t2");
    generation++; // the server now expires t2 too
    await client.get("/data");
    expect(server.count("/refresh")).toBe(2);
    expect(session.token).toBe("t4");
  });
});

describe("refresh failure", () => {
  it("logs out with 'refresh-failed' and rejects with 'Unable to refresh token'", async () => {
    server.handle((request) =>
      request.path === "/refresh" ? { status: 401, body: {} } : { status: 417, body: {} },
    );
    const { client, onLogout } = setup();

    const error = await client.get("/data").catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(UNABLE_TO_REFRESH);
    expect((error as Error).message).toBe("Unable to refresh token");
    expect(onLogout).toHaveBeenCalledWith("refresh-failed");
  });

  it("logs out once when several queued requests share the failed refresh", async () => {
    server.handle((request) =>
      request.path === "/refresh" ? { status: 401, body: {}, delayMs: 50 } : { status: 417, body: {} },
    );
    const { client, onLogout } = setup();

    const errors = await Promise.all(
      ["/data/1", "/data/2", "/data/3"].map((path) => client.get(path).catch((e: unknown) => e)),
    );

    expect(errors.map((e) => (e as Error).message)).toEqual([
      UNABLE_TO_REFRESH,
      UNABLE_TO_REFRESH,
      UNABLE_TO_REFRESH,
    ]);
    expect(server.count("/refresh")).toBe(1);
    expect(onLogout).toHaveBeenCalledTimes(1);
  });
});

describe("401 and 406", () => {
  it.each([401, 406])("%i logs out with 'unauthorized' and rejects", async (status) => {
    server.handle(() => ({ status, body: { message: "nope" } }));
    const { client, onLogout } = setup();

    const error = await client.get("/data").catch((e: unknown) => e);

    expect(statusOf(error)).toBe(status);
    expect(onLogout).toHaveBeenCalledWith("unauthorized");
    expect(server.count("/refresh")).toBe(0);
  });

  it("skipSessionHandling leaves a 401 to the caller (sign-in: wrong password)", async () => {
    server.handle(() => ({ status: 401, body: { message: "Invalid email or password" } }));
    const { client, onLogout } = setup(null);

    const error = await client
      .post("/api/auth/signin", {}, { skipSessionHandling: true })
      .catch((e: unknown) => e);

    expect(statusOf(error)).toBe(401);
    expect(onLogout).not.toHaveBeenCalled();
  });

  it("other errors pass through untouched", async () => {
    server.handle(() => ({ status: 403, body: { message: "forbidden" } }));
    const { client, onLogout } = setup();
    const error = await client.get("/data").catch((e: unknown) => e);
    expect(statusOf(error)).toBe(403);
    expect(onLogout).not.toHaveBeenCalled();
    expect(server.count("/refresh")).toBe(0);
  });
});

describe("no response", () => {
  it("logs and passes the error on, without logging out or leaking the token", async () => {
    server.handle(() => ({ status: 200, hangUp: true }));
    const { client, onLogout, logError } = setup("secret-token");

    const error = await client.get("/data").catch((e: unknown) => e);

    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).response).toBeUndefined();
    expect(logError).toHaveBeenCalledTimes(1);
    expect(logError.mock.calls[0][0]).toContain("No response from server: GET /data");
    expect(logError.mock.calls[0][0]).not.toContain("secret-token");
    expect(onLogout).not.toHaveBeenCalled();
  });
});
