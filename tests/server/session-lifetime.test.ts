/**
 * Session lifetimes besides the sliding refresh expiry: an absolute lifetime from sign-in
 * (SESSION_MAX_AGE) and an optional idle timeout (SESSION_IDLE_TIMEOUT). Past either, a
 * request or a refresh answers 401 and the session is revoked ('expired' / 'idle').
 * Timestamps are moved in the database rather than waited for; one test waits (on a
 * condition) for a real two-second lifetime.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ACTIVITY_WRITE_INTERVAL_MS,
  activityIsStale,
  activityWriteInterval,
  cacheDeadline,
  refreshExpiry,
  SESSION_END_MESSAGES,
  sessionLimitReached,
} from "../../server/auth/session-lifetime";
import { ConfigError, loadConfig } from "../../server/config";
import { DRIVERS, type SignedIn, startServer, type TestServer } from "./harness";

const MAX_AGE = 3600;
const IDLE = 600;

describe("session lifetime rules", () => {
  const config = { sessionMaxAge: 100, sessionIdleTimeout: 10, refreshTokenTtl: 1000 };
  const t0 = new Date("2026-01-01T00:00:00Z");
  const at = (s: number) => t0.getTime() + s * 1000;
  const since = (s: number) => new Date(at(s));

  it("ends a session at its absolute deadline, whatever the activity", () => {
    expect(sessionLimitReached({ createdAt: t0, lastActiveAt: since(99) }, config, at(99))).toBeNull();
    expect(sessionLimitReached({ createdAt: t0, lastActiveAt: since(99) }, config, at(100))).toBe("expired");
  });

  it("ends an idle session, and not at all when the idle timeout is off", () => {
    expect(sessionLimitReached({ createdAt: t0, lastActiveAt: since(50) }, config, at(59))).toBeNull();
    expect(sessionLimitReached({ createdAt: t0, lastActiveAt: since(50) }, config, at(60))).toBe("idle");
    const off = { ...config, sessionIdleTimeout: 0 };
    expect(sessionLimitReached({ createdAt: t0, lastActiveAt: t0 }, off, at(99))).toBeNull();
  });

  it("caps refresh tokens at the deadline, and cached sessions at half the idle window", () => {
    expect(refreshExpiry(t0, config, at(0)).getTime()).toBe(at(100));
    expect(refreshExpiry(t0, { ...config, refreshTokenTtl: 30 }, at(10)).getTime()).toBe(at(40));
    expect(cacheDeadline({ createdAt: t0, lastActiveAt: since(20) }, config)).toBe(at(25));
    expect(cacheDeadline({ createdAt: t0, lastActiveAt: since(98) }, config)).toBe(at(100));
    expect(cacheDeadline({ createdAt: t0, lastActiveAt: t0 }, { ...config, sessionIdleTimeout: 0 })).toBe(
      at(100),
    );
  });

  it("writes activity once a minute, or every quarter of a short idle window", () => {
    expect(activityWriteInterval({ ...config, sessionIdleTimeout: 0 })).toBe(ACTIVITY_WRITE_INTERVAL_MS);
    expect(activityWriteInterval({ ...config, sessionIdleTimeout: 3600 })).toBe(ACTIVITY_WRITE_INTERVAL_MS);
    expect(activityWriteInterval(config)).toBe(2500);
    expect(activityIsStale(t0, config, at(2))).toBe(false);
    expect(activityIsStale(t0, config, at(2.5))).toBe(true);
  });

  it("reads and validates the settings", () => {
    const base = { DATA_DIR: "/tmp/x" };
    expect(loadConfig(base)).toMatchObject({
      sessionMaxAge: 90 * 86_400,
      sessionIdleTimeout: 0,
      inviteTokenTtl: 7 * 86_400,
    });
    expect(loadConfig({ ...base, SESSION_IDLE_TIMEOUT: "900", SESSION_MAX_AGE: "86400" })).toMatchObject({
      sessionMaxAge: 86_400,
      sessionIdleTimeout: 900,
    });
    expect(() => loadConfig({ ...base, SESSION_MAX_AGE: "0" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, SESSION_IDLE_TIMEOUT: "soon" })).toThrow(/SESSION_IDLE_TIMEOUT/);
    expect(() => loadConfig({ ...base, INVITE_TOKEN_TTL: "-1" })).toThrow(/INVITE_TOKEN_TTL/);
  });
});

describe.each(DRIVERS)("session lifetime on %s", (driver) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(driver, {
      SESSION_MAX_AGE: String(MAX_AGE),
      SESSION_IDLE_TIMEOUT: String(IDLE),
    });
  });
  afterAll(() => s?.close());

  let n = 0;
  const signIn = () =>
    s.signIn(undefined, undefined, { deviceId: `life-${++n}`, deviceName: "Linux Chrome" });
  const me = (token: string) => s.api("GET", "/api/users/me", { token });
  const refresh = (refreshToken: string) =>
    s.api<SignedIn>("POST", "/api/auth/refreshtokenapp", { body: { refreshToken } });
  const sidOf = (token: string) =>
    JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).sid as string;
  const session = (sid: string) =>
    s.database.db.selectFrom("sessions").selectAll().where("id", "=", sid).executeTakeFirstOrThrow();
  /** Moves a session's timestamps into the past and drops it from this instance's cache. */
  async function age(sid: string, set: { created_at?: Date; last_active_at?: Date }) {
    await s.database.db.updateTable("sessions").set(set).where("id", "=", sid).execute();
    s.ctx.principals.forgetSession(sid);
  }
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);

  it("never hands out a refresh token that outlives the session", async () => {
    const t = await signIn();
    const body = t as SignedIn & { refreshTokenDuration: number; refreshTokenExpiry: number };
    expect(body.refreshTokenDuration).toBeLessThanOrEqual(MAX_AGE);
    const row = await session(sidOf(t.accessToken));
    expect(row.expires_at.getTime()).toBe(row.created_at.getTime() + MAX_AGE * 1000);
    await age(row.id, { created_at: ago(MAX_AGE - 60) });
    const rotated = await refresh(t.refreshToken);
    expect(rotated.status).toBe(200);
    const after = await session(row.id);
    expect(after.expires_at.getTime()).toBe(after.created_at.getTime() + MAX_AGE * 1000);
    expect(
      (rotated.body as unknown as { refreshTokenDuration: number }).refreshTokenDuration,
    ).toBeLessThanOrEqual(60);
  });

  it("answers 401 to a request past the absolute lifetime and revokes the session as 'expired'", async () => {
    const t = await signIn();
    expect((await me(t.accessToken)).status).toBe(200);
    await age(sidOf(t.accessToken), { created_at: ago(MAX_AGE + 1), last_active_at: new Date() });
    const res = await me(t.accessToken);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(SESSION_END_MESSAGES.expired);
    expect((await session(sidOf(t.accessToken))).revoked_reason).toBe("expired");
    expect((await refresh(t.refreshToken)).status).toBe(401);
  });

  it("answers 401 to a refresh past the absolute lifetime and revokes the session", async () => {
    const t = await signIn();
    await age(sidOf(t.accessToken), { created_at: ago(MAX_AGE + 1) });
    const res = await refresh(t.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: SESSION_END_MESSAGES.expired });
    expect((await session(sidOf(t.accessToken))).revoked_reason).toBe("expired");
    expect((await me(t.accessToken)).status).toBe(401);
  });

  it("answers 401 after the idle timeout, on a request or a refresh, and revokes as 'idle'", async () => {
    const a = await signIn();
    await age(sidOf(a.accessToken), { last_active_at: ago(IDLE + 1) });
    const res = await me(a.accessToken);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(SESSION_END_MESSAGES.idle);
    expect((await session(sidOf(a.accessToken))).revoked_reason).toBe("idle");

    const b = await signIn();
    await age(sidOf(b.accessToken), { last_active_at: ago(IDLE + 1) });
    expect((await refresh(b.refreshToken)).status).toBe(401);
    expect((await session(sidOf(b.accessToken))).revoked_reason).toBe("idle");
  });

  it("records activity at most once a minute, and activity keeps an idle session alive", async () => {
    const t = await signIn();
    const sid = sidOf(t.accessToken);
    // Just under the timeout: the next request is in time and moves the clock.
    await age(sid, { last_active_at: ago(IDLE - 5) });
    expect((await me(t.accessToken)).status).toBe(200);
    const touched = (await session(sid)).last_active_at.getTime();
    expect(Date.now() - touched).toBeLessThan(ACTIVITY_WRITE_INTERVAL_MS);

    // A fresh timestamp is not written again on the next lookups.
    s.ctx.principals.forgetSession(sid);
    expect((await me(t.accessToken)).status).toBe(200);
    expect((await session(sid)).last_active_at.getTime()).toBe(touched);

    // A refresh counts as activity too.
    await age(sid, { last_active_at: ago(IDLE - 5) });
    expect((await refresh(t.refreshToken)).status).toBe(200);
    expect(Date.now() - (await session(sid)).last_active_at.getTime()).toBeLessThan(
      ACTIVITY_WRITE_INTERVAL_MS,
    );
  });
});

describe.each(DRIVERS)("real two-second limits on %s", (driver) => {
  let maxAge: TestServer;
  let idle: TestServer;
  beforeAll(async () => {
    // Default session cache (5 s): a cached session must still end on time.
    [maxAge, idle] = await Promise.all([
      startServer(driver, { SESSION_MAX_AGE: "2" }),
      startServer(driver, { SESSION_IDLE_TIMEOUT: "2" }),
    ]);
  });
  afterAll(async () => {
    await maxAge?.close();
    await idle?.close();
  });

  const statusOf = async (s: TestServer, token: string) =>
    (await s.api("GET", "/api/users/me", { token })).status;
  const reasonOf = async (s: TestServer, userId: string) =>
    (
      await s.database.db
        .selectFrom("sessions")
        .select("revoked_reason")
        .where("user_id", "=", userId)
        .orderBy("created_at", "desc")
        .executeTakeFirstOrThrow()
    ).revoked_reason;

  it("ends a session at its maximum age by itself, on requests and refreshes alike", async () => {
    const t = await maxAge.signIn();
    expect(await statusOf(maxAge, t.accessToken)).toBe(200);
    await expect.poll(() => statusOf(maxAge, t.accessToken), { timeout: 20_000, interval: 250 }).toBe(401);
    expect(await reasonOf(maxAge, t.user.userID)).toBe("expired");
    const res = await maxAge.api("POST", "/api/auth/refreshtokenapp", {
      body: { refreshToken: t.refreshToken },
    });
    expect(res.status).toBe(401);
    // A new sign-in starts a new lifetime.
    const again = await maxAge.signIn();
    expect(await statusOf(maxAge, again.accessToken)).toBe(200);
  });

  it("ends an unused session after the idle timeout", async () => {
    const t = await idle.signIn();
    expect(await statusOf(idle, t.accessToken)).toBe(200);
    // Polled slower than the idle window, so the polls themselves are not activity enough.
    await expect.poll(() => statusOf(idle, t.accessToken), { timeout: 30_000, interval: 3000 }).toBe(401);
    expect(await reasonOf(idle, t.user.userID)).toBe("idle");
  });
});
