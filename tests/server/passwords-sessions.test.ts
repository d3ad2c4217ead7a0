/**
 * Passwords: the common-password list on every path that sets one (admin create/update,
 * reset; invitations are in invite.test.ts), and a signed-in user changing their own
 * password, optionally signing out their other devices.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMON_PASSWORD, commonPasswordCount, isCommonPassword } from "../../server/auth/passwords";
import {
  CURRENT_PASSWORD_WRONG,
  PASSWORD_CHANGED,
  SAME_PASSWORD,
} from "../../server/modules/users/password.service";
import { ADMIN, DRIVERS, type SignedIn, securityEventDetails, startServer, type TestServer } from "./harness";

/** Passwords long enough for the schema (8+) that are in the list. */
const COMMON = ["password123", "Qwerty123", "iloveyou1", "PASSWORD1"];
const MAX_ATTEMPTS = 4;

describe("the common-password list", () => {
  it("holds at least 10,000 passwords and compares case-insensitively", async () => {
    expect(await commonPasswordCount()).toBeGreaterThanOrEqual(10_000);
    for (const p of COMMON) expect(await isCommonPassword(p), p).toBe(true);
    expect(await isCommonPassword("PaSsWoRd")).toBe(true);
    expect(await isCommonPassword("Old-passw0rd")).toBe(false);
    expect(await isCommonPassword("Vivid-Lantern-42")).toBe(false);
  });
});

describe.each(DRIVERS)("passwords on %s", (driver) => {
  let s: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    s = await startServer(driver, { AUTH_MAX_ATTEMPTS: String(MAX_ATTEMPTS) });
    admin = await s.signIn();
  });
  afterAll(() => s?.close());

  const device = (n: number) => ({ deviceId: `device-${n}`, deviceName: `Device ${n}` });
  let seq = 0;
  async function newUser(password = "Old-passw0rd") {
    const email = `pw-${++seq}-${driver}@example.com`;
    const res = await s.api<{ id: string }>("POST", "/api/users", {
      token: admin.accessToken,
      body: { first_name: "Pat", last_name: "Word", email, password, role: 3, modules: [1] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.id, email };
  }
  const hashOf = async (id: string) =>
    (
      await s.database.db
        .selectFrom("users")
        .select("password_hash")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).password_hash;
  const me = (token: string) => s.api("GET", "/api/users/me", { token });
  const refresh = (refreshToken: string) =>
    s.api("POST", "/api/auth/refreshtokenapp", { body: { refreshToken } });

  describe("common passwords are refused with a per-field message", () => {
    it("when an admin creates a user", async () => {
      const email = `common-${driver}@example.com`;
      const res = await s.api("POST", "/api/users", {
        token: admin.accessToken,
        body: { first_name: "Com", last_name: "Mon", email, password: "Password123", role: 3, modules: [] },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        statusCode: 400,
        message: COMMON_PASSWORD,
        details: [{ field: "password", message: COMMON_PASSWORD }],
      });
      const row = await s.database.db
        .selectFrom("users")
        .select("id")
        .where("email", "=", email)
        .executeTakeFirst();
      expect(row).toBeUndefined();
    });

    it("when an admin sets a user's password", async () => {
      const u = await newUser();
      const before = await hashOf(u.id);
      const res = await s.api("PATCH", `/api/users/${u.id}`, {
        token: admin.accessToken,
        body: { password: "QWERTY123" },
      });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ field: "password", message: COMMON_PASSWORD }]);
      expect(await hashOf(u.id)).toBe(before);
      await expect(s.signIn(u.email, "Old-passw0rd", device(1))).resolves.toHaveProperty("accessToken");
    });

    it("on a password reset, and the link still works afterwards", async () => {
      const u = await newUser();
      await s.api("POST", "/api/auth/forgot-password", { body: { email: u.email } });
      const outbox = await s.api<{ data: Array<{ to: string; text: string }> }>(
        "GET",
        `/api/outbox?q=${encodeURIComponent(u.email)}`,
        { token: admin.accessToken },
      );
      const link = outbox.body.data.find((m) => m.to === u.email)?.text.match(/https?:\/\/\S+/)?.[0];
      const id = link?.split("/").pop() as string;
      expect(id).toBeTruthy();
      const refused = await s.api("POST", "/api/auth/reset-password", {
        body: { id, password: "iloveyou1" },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([{ field: "password", message: COMMON_PASSWORD }]);
      const done = await s.api("POST", "/api/auth/reset-password", {
        body: { id, password: "Vivid-Lantern-42" },
      });
      expect(done.status).toBe(200);
      await expect(s.signIn(u.email, "Vivid-Lantern-42", device(1))).resolves.toHaveProperty("accessToken");
    });
  });

  describe("changing my own password", () => {
    const change = (token: string, body: Record<string, unknown>) =>
      s.api<{ message: string; signedOutSessions: number; details?: unknown }>(
        "POST",
        "/api/users/me/password",
        { token, body },
      );

    it("needs a session", async () => {
      const res = await s.api("POST", "/api/users/me/password", {
        body: { currentPassword: "x", newPassword: "Vivid-Lantern-42" },
      });
      expect(res.status).toBe(401);
    });

    it("refuses a wrong current password on its field and changes nothing", async () => {
      const u = await newUser();
      const session = await s.signIn(u.email, "Old-passw0rd", device(1));
      const before = await hashOf(u.id);
      const res = await change(session.accessToken, {
        currentPassword: "Not-my-passw0rd",
        newPassword: "Vivid-Lantern-42",
      });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ field: "currentPassword", message: CURRENT_PASSWORD_WRONG }]);
      expect(await hashOf(u.id)).toBe(before);
    });

    it("counts wrong current passwords with sign-in's limiter, then answers 429", async () => {
      const u = await newUser();
      const session = await s.signIn(u.email, "Old-passw0rd", device(1));
      for (let i = 0; i < MAX_ATTEMPTS; i++) {
        const res = await change(session.accessToken, {
          currentPassword: `Wrong-passw0rd-${i}`,
          newPassword: "Vivid-Lantern-42",
        });
        expect(res.status).toBe(400);
      }
      const limited = await change(session.accessToken, {
        currentPassword: "Old-passw0rd",
        newPassword: "Vivid-Lantern-42",
      });
      expect(limited.status).toBe(429);
      // The same budget as sign-in: the account is locked there too.
      const signIn = await s.api("POST", "/api/auth/signin", {
        body: { email: u.email, password: "Old-passw0rd", deviceInfo: device(2) },
      });
      expect(signIn.status).toBe(429);
      expect(await securityEventDetails(s, "lockout", u.id)).toEqual([
        { action: "password_change", scope: "account" },
      ]);
    });

    it("refuses a common new password, or the current one again, on the new password's field", async () => {
      const u = await newUser();
      const session = await s.signIn(u.email, "Old-passw0rd", device(1));
      const common = await change(session.accessToken, {
        currentPassword: "Old-passw0rd",
        newPassword: "Password123",
      });
      expect(common.status).toBe(400);
      expect(common.body.details).toEqual([{ field: "newPassword", message: COMMON_PASSWORD }]);
      const same = await change(session.accessToken, {
        currentPassword: "Old-passw0rd",
        newPassword: "Old-passw0rd",
      });
      expect(same.status).toBe(400);
      expect(same.body.details).toEqual([{ field: "newPassword", message: SAME_PASSWORD }]);
      const both = await change(session.accessToken, {
        currentPassword: "Wrong-passw0rd",
        newPassword: "password123",
      });
      expect(both.body.details).toEqual([
        { field: "currentPassword", message: CURRENT_PASSWORD_WRONG },
        { field: "newPassword", message: COMMON_PASSWORD },
      ]);
      const short = await change(session.accessToken, {
        currentPassword: "Old-passw0rd",
        newPassword: "short",
      });
      expect(short.status).toBe(400);
      expect(short.body.details).toEqual([
        { field: "newPassword", message: "New password must be at least 8 characters" },
      ]);
      await expect(s.signIn(u.email, "Old-passw0rd", device(1))).resolves.toHaveProperty("accessToken");
    });

    it("changes it and keeps my other devices signed in when not asked otherwise", async () => {
      const u = await newUser();
      const here = await s.signIn(u.email, "Old-passw0rd", device(1));
      const there = await s.signIn(u.email, "Old-passw0rd", device(2));
      const res = await change(here.accessToken, {
        currentPassword: "Old-passw0rd",
        newPassword: "Vivid-Lantern-42",
        signOutOtherDevices: false,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: PASSWORD_CHANGED, signedOutSessions: 0 });
      expect((await me(here.accessToken)).status).toBe(200);
      expect((await me(there.accessToken)).status).toBe(200);
      expect((await refresh(there.refreshToken)).status).toBe(200);
      await expect(s.signIn(u.email, "Old-passw0rd", device(3))).rejects.toThrow(/401/);
      await expect(s.signIn(u.email, "Vivid-Lantern-42", device(3))).resolves.toHaveProperty("accessToken");
      const events = await s.database.db
        .selectFrom("security_events")
        .select(["type", "actor_id", "ip", "user_agent"])
        .where("user_id", "=", u.id)
        .where("type", "=", "password_changed")
        .execute();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ actor_id: u.id, ip: "127.0.0.1" });
      expect(events[0].user_agent).toMatch(/Chrome/);
    });

    it("signs out every other device, not this one, when asked", async () => {
      const u = await newUser();
      const here = await s.signIn(u.email, "Old-passw0rd", device(1));
      const there = await s.signIn(u.email, "Old-passw0rd", device(2));
      const third = await s.signIn(u.email, "Old-passw0rd", device(3));
      expect((await me(there.accessToken)).status).toBe(200); // cached before the change
      const res = await change(here.accessToken, {
        currentPassword: "Old-passw0rd",
        newPassword: "Vivid-Lantern-42",
        signOutOtherDevices: true,
      });
      expect(res.status).toBe(200);
      expect(res.body.signedOutSessions).toBe(2);
      expect((await me(there.accessToken)).status).toBe(401);
      expect((await me(third.accessToken)).status).toBe(401);
      expect((await refresh(there.refreshToken)).status).toBe(401);
      expect((await me(here.accessToken)).status).toBe(200);
      expect((await refresh(here.refreshToken)).status).toBe(200);
      const live = await s.database.db
        .selectFrom("sessions")
        .select(["id", "revoked_reason"])
        .where("user_id", "=", u.id)
        .execute();
      expect(live.filter((r) => r.revoked_reason === null)).toHaveLength(1);
      expect(live.filter((r) => r.revoked_reason === "password_changed")).toHaveLength(2);
    });

    it("makes an earlier reset link useless", async () => {
      const u = await newUser();
      await s.api("POST", "/api/auth/forgot-password", { body: { email: u.email } });
      const pending = await s.database.db
        .selectFrom("password_resets")
        .select("used_at")
        .where("user_id", "=", u.id)
        .executeTakeFirstOrThrow();
      expect(pending.used_at).toBeNull();
      const here = await s.signIn(u.email, "Old-passw0rd", device(1));
      const res = await change(here.accessToken, {
        currentPassword: "Old-passw0rd",
        newPassword: "Vivid-Lantern-42",
      });
      expect(res.status).toBe(200);
      const after = await s.database.db
        .selectFrom("password_resets")
        .select("used_at")
        .where("user_id", "=", u.id)
        .executeTakeFirstOrThrow();
      expect(after.used_at).not.toBeNull();
    });

    it("works for the admin too (the account page is for everyone)", async () => {
      const session = await s.signIn(ADMIN.email, ADMIN.password, device(9));
      const res = await change(session.accessToken, {
        currentPassword: ADMIN.password,
        newPassword: "Admin-Passw0rd-2!",
      });
      expect(res.status).toBe(200);
      const back = await change(session.accessToken, {
        currentPassword: "Admin-Passw0rd-2!",
        newPassword: ADMIN.password,
      });
      expect(back.status).toBe(200);
    });
  });
});
