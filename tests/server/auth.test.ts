import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, DEVICE, DRIVERS, sleep, startServer, type TestServer } from "./harness";

describe.each(DRIVERS)("auth on %s", (driver) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(driver, { AUTH_MAX_ATTEMPTS: "3", ACCESS_TOKEN_TTL: "2" });
  });
  afterAll(() => s?.close());

  it("signs in and returns tokens, expiries and the spec's user slice", async () => {
    const asked = Date.now();
    const res = await s.api("POST", "/api/auth/signin", {
      body: { email: "Admin@Example.com", password: ADMIN.password, deviceInfo: DEVICE },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accessTokenDuration: 2, refreshTokenDuration: 2592000 });
    expect(typeof res.body.accessToken).toBe("string");
    expect(typeof res.body.refreshToken).toBe("string");
    // Two seconds from the sign-in, counted in whole seconds: after the request was sent, not
    // after the answer came (a busy machine can take longer than two seconds to answer).
    expect(Number(res.body.accessTokenExpiry)).toBeGreaterThan(asked + 1000);
    const user = res.body.user as Record<string, unknown>;
    expect(Object.keys(user).sort()).toEqual(
      [
        "approverCondition",
        "email",
        "first_name",
        "isadmin",
        "last_name",
        "modules_submodules",
        "plan_type",
        "type_user",
        "userID",
        "userRights",
      ].sort(),
    );
    expect(user).toMatchObject({ type_user: "ROLE_ADMIN", isadmin: true });
    const first = (user.modules_submodules as Array<{ modules: Array<{ moduleID: number }> }>)[0];
    expect(first.modules.map((m) => m.moduleID)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("records the device with browser and device kind from the user agent", async () => {
    const { accessToken } = await s.signIn();
    const res = await s.api<{ data: Array<Record<string, unknown>> }>("GET", "/api/users/me/devices", {
      token: accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({
      deviceId: DEVICE.deviceId,
      deviceName: DEVICE.deviceName,
      browser: "Chrome",
      device: "Linux",
      ip: "127.0.0.1",
      current: true,
      signedIn: true,
    });
  });

  it("answers 400 with per-field messages for bad input", async () => {
    const res = await s.api("POST", "/api/auth/signin", {
      body: { email: "a@b.c", deviceInfo: { deviceId: "" }, role: 1 },
    });
    expect(res.status).toBe(400);
    const fields = (res.body.details as Array<{ field: string }>).map((d) => d.field).sort();
    expect(fields).toEqual(["deviceInfo.deviceId", "deviceInfo.deviceName", "password", "role"]);
  });

  it("refuses a wrong password and an unknown email with the same answer", async () => {
    const wrong = await s.api("POST", "/api/auth/signin", {
      body: { email: "nobody@example.com", password: "x", deviceInfo: DEVICE },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe("Invalid email or password");
  });

  it("rate limits sign-in per account", async () => {
    const body = { email: "victim@example.com", password: "wrong", deviceInfo: DEVICE };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await s.api("POST", "/api/auth/signin", { body })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it("rotates the refresh token, and reuse of a rotated token revokes the chain", async () => {
    const a = await s.signIn(ADMIN.email, ADMIN.password, { deviceId: "rot", deviceName: "Linux Chrome" });
    const r1 = await s.api("POST", "/api/auth/refreshtokenapp", { body: { refreshToken: a.refreshToken } });
    expect(r1.status).toBe(200);
    expect(r1.body.refreshToken).not.toBe(a.refreshToken);
    expect(r1.body.refreshTokenDuration).toBeGreaterThan(0);
    const r2 = await s.api("POST", "/api/auth/refreshtokenapp", {
      body: { refreshToken: r1.body.refreshToken },
    });
    expect(r2.status).toBe(200);
    // The first token is two rotations old: replay → the chain is revoked.
    const replay = await s.api("POST", "/api/auth/refreshtokenapp", {
      body: { refreshToken: a.refreshToken },
    });
    expect(replay.status).toBe(401);
    const after = await s.api("POST", "/api/auth/refreshtokenapp", {
      body: { refreshToken: r2.body.refreshToken },
    });
    expect(after.status).toBe(401);
    const me = await s.api("GET", "/api/users/me", { token: r2.body.accessToken as string });
    expect(me.status).toBe(401);
  });

  it("gives concurrent refreshes of one token the same new pair, not a second chain", async () => {
    const a = await s.signIn(ADMIN.email, ADMIN.password, { deviceId: "race", deviceName: "Linux Chrome" });
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        s.api("POST", "/api/auth/refreshtokenapp", { body: { refreshToken: a.refreshToken } }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((r) => r.body.refreshToken)).size).toBe(1);
    const next = await s.api("POST", "/api/auth/refreshtokenapp", {
      body: { refreshToken: answers[0].body.refreshToken },
    });
    expect(next.status).toBe(200);
  });

  it("answers 417 for an expired genuine token, 401 for forged ones", async () => {
    const a = await s.signIn(ADMIN.email, ADMIN.password, { deviceId: "exp", deviceName: "Linux Chrome" });
    expect((await s.api("GET", "/api/users/me", { token: a.accessToken })).status).toBe(200);
    await sleep(2100);
    expect((await s.api("GET", "/api/users/me", { token: a.accessToken })).status).toBe(417);

    const [h, p] = a.accessToken.split(".");
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, "base64url").toString()), sub: "x" })).toString("base64url")}.${a.accessToken.split(".")[2]}`;
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${p}.`;
    const otherKey = `${h}.${p}.${createHmac("sha256", "not-the-secret-not-the-secret-123").update(`${h}.${p}`).digest("base64url")}`;
    for (const token of [tampered, none, otherKey, a.refreshToken, "garbage"]) {
      expect((await s.api("GET", "/api/users/me", { token })).status, token.slice(0, 20)).toBe(401);
    }
    expect((await s.api("GET", "/api/users/me")).status).toBe(401);
  });

  it("logs a device out: its token answers 406 at once, even when logout used an expired token", async () => {
    const a = await s.signIn(ADMIN.email, ADMIN.password, { deviceId: "out", deviceName: "Linux Chrome" });
    const out = await s.api("POST", "/clients/logout", {
      token: a.accessToken,
      body: { deviceInfo: { deviceId: "out", deviceName: "x" } },
    });
    expect(out.status).toBe(204);
    expect((await s.api("GET", "/api/users/me", { token: a.accessToken })).status).toBe(406);
    expect(
      (await s.api("POST", "/api/auth/refreshtokenapp", { body: { refreshToken: a.refreshToken } })).status,
    ).toBe(401);

    const b = await s.signIn(ADMIN.email, ADMIN.password, { deviceId: "late", deviceName: "Linux Chrome" });
    await sleep(2100);
    expect((await s.api("POST", "/clients/logout", { token: b.accessToken, body: {} })).status).toBe(204);
    expect(
      (await s.api("POST", "/api/auth/refreshtokenapp", { body: { refreshToken: b.refreshToken } })).status,
    ).toBe(401);
  });

  it("signing in again on the same device replaces its chain", async () => {
    const first = await s.signIn(ADMIN.email, ADMIN.password, {
      deviceId: "same",
      deviceName: "Linux Chrome",
    });
    await s.signIn(ADMIN.email, ADMIN.password, { deviceId: "same", deviceName: "Linux Chrome" });
    expect((await s.api("GET", "/api/users/me", { token: first.accessToken })).status).toBe(401);
  });
});
