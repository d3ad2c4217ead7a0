/**
 * The second factor (TOTP) on both engines: enrolment from My account, the two-step sign-in,
 * the attempt limit, recovery codes, the admin's policy and reset, and accounts without one
 * signing in exactly as before. Codes are computed from the secret the API hands out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, DEVICE, DRIVERS, securityEventDetails, startServer, type TestServer } from "./harness";
import { awayFromStepEdge, code, PASSWORD } from "./second-factor-fixtures";

let serial = 0;

describe.each(DRIVERS)("second factor on %s", (driver) => {
  let s: TestServer;
  let admin: string;

  beforeAll(async () => {
    s = await startServer(driver, { AUTH_MAX_ATTEMPTS: "3" });
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  /** A new user (role 3 unless given) and their device. */
  async function newUser(role = 3) {
    const email = `tfa-${++serial}-${Date.now()}@example.com`;
    const made = await s.api("POST", "/api/users", {
      token: admin,
      body: { first_name: "Tess", last_name: "Factor", email, password: PASSWORD, role, modules: [1] },
    });
    expect(made.status).toBe(201);
    const device = { deviceId: `dev-${email}`, deviceName: "Linux Chrome" };
    return { id: made.body.id as string, email, device };
  }

  const signIn = (user: { email: string; device: typeof DEVICE }, password = PASSWORD) =>
    s.api<Record<string, unknown>>("POST", "/api/auth/signin", {
      body: { email: user.email, password, deviceInfo: user.device },
    });

  /** A user with a confirmed authenticator: their secret, recovery codes and session token. */
  async function enrolledUser(role = 3) {
    const user = await newUser(role);
    const token = (await s.signIn(user.email, PASSWORD, user.device)).accessToken;
    const begun = await s.api<{ secret: string; uri: string }>("POST", "/api/users/me/second-factor/enrol", {
      token,
    });
    expect(begun.status).toBe(200);
    await awayFromStepEdge();
    const confirmed = await s.api<{ recoveryCodes: string[] }>(
      "POST",
      "/api/users/me/second-factor/confirm",
      {
        token,
        body: { code: code(begun.body.secret, -1) },
      },
    );
    expect(confirmed.status).toBe(200);
    return { ...user, secret: begun.body.secret, recoveryCodes: confirmed.body.recoveryCodes, token };
  }

  it("enrols from My account: secret and URI, a wrong code refused, ten recovery codes once", async () => {
    const user = await newUser();
    const token = (await s.signIn(user.email, PASSWORD, user.device)).accessToken;
    const before = await s.api("GET", "/api/users/me/second-factor", { token });
    expect(before.body).toMatchObject({ enabled: false, recoveryCodesLeft: 0, required: false });

    const begun = await s.api<{ secret: string; uri: string }>("POST", "/api/users/me/second-factor/enrol", {
      token,
    });
    expect(begun.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(begun.body.uri).toBe(
      `otpauth://totp/Atelier:${encodeURIComponent(user.email)}?secret=${begun.body.secret}&issuer=Atelier&algorithm=SHA1&digits=6&period=30`,
    );
    // Sealed at rest: the secret is nowhere in its row.
    const row = await s.database.db
      .selectFrom("user_second_factors")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(begun.body.secret);

    const bad = await s.api("POST", "/api/users/me/second-factor/confirm", {
      token,
      body: { code: "12345" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: "code", message: expect.stringMatching(/six digits/) }]);
    await awayFromStepEdge();
    const wrong = String((Number(code(begun.body.secret)) + 500_000) % 1_000_000).padStart(6, "0");
    const refused = await s.api("POST", "/api/users/me/second-factor/confirm", {
      token,
      body: { code: wrong },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ field: "code", message: expect.stringMatching(/not right/) }]);

    const confirmed = await s.api<{ recoveryCodes: string[] }>(
      "POST",
      "/api/users/me/second-factor/confirm",
      {
        token,
        body: { code: code(begun.body.secret) },
      },
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
    const stored = await s.database.db
      .selectFrom("user_recovery_codes")
      .select("code_hash")
      .where("user_id", "=", user.id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const c of confirmed.body.recoveryCodes) expect(stored.map((r) => r.code_hash)).not.toContain(c);

    const after = await s.api("GET", "/api/users/me/second-factor", { token });
    expect(after.body).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    // Enrolling again while one is set up is refused (no replacement without the old one).
    expect((await s.api("POST", "/api/users/me/second-factor/enrol", { token })).status).toBe(409);
    expect(await securityEventDetails(s, "second_factor_enabled", user.id)).toHaveLength(1);
  });

  it("signs in in two steps; the challenge is single use and a code is not accepted twice", async () => {
    const user = await enrolledUser();
    const first = await signIn(user);
    expect(first.status).toBe(202);
    expect(Object.keys(first.body).sort()).toEqual(["challenge", "challengeExpiry", "secondFactor"]);
    expect(first.body.secondFactor).toBe("totp");
    const challenge = first.body.challenge as string;

    // The code the enrolment used (step -1) is spent: a replay is refused.
    const replay = await s.api("POST", "/api/auth/signin/second-factor", {
      body: { challenge, code: code(user.secret, -1) },
    });
    expect(replay.status).toBe(401);

    const now = code(user.secret);
    const done = await s.api<Record<string, unknown>>("POST", "/api/auth/signin/second-factor", {
      body: { challenge, code: now },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      accessTokenDuration: expect.any(Number),
      refreshTokenDuration: 2592000,
    });
    expect((done.body.user as { email: string }).email).toBe(user.email);

    // Single use: the same challenge again, even with a fresh code, is refused.
    const again = await s.api("POST", "/api/auth/signin/second-factor", {
      body: { challenge, code: code(user.secret, 1) },
    });
    expect(again.status).toBe(401);
    expect(again.body.message).toMatch(/expired/);
    // And the same code with a new challenge is a replay.
    const second = await signIn(user);
    const reused = await s.api("POST", "/api/auth/signin/second-factor", {
      body: { challenge: second.body.challenge, code: now },
    });
    expect(reused.status).toBe(401);

    // The device list says this session passed the second factor, with the device id of step one.
    const devices = await s.api<{ data: Array<Record<string, unknown>> }>("GET", "/api/users/me/devices", {
      token: done.body.accessToken as string,
    });
    expect(devices.body.data[0]).toMatchObject({
      deviceId: user.device.deviceId,
      current: true,
      signedIn: true,
      secondFactor: "totp",
    });
    const signins = (await securityEventDetails(s, "signin", user.id)) as Array<Record<string, unknown>>;
    expect(signins.at(-1)).toMatchObject({ deviceId: user.device.deviceId, secondFactor: "totp" });
  });

  it("counts wrong codes toward the attempt limit, then refuses even the right one", async () => {
    const user = await enrolledUser();
    const { challenge } = (await signIn(user)).body as { challenge: string };
    const wrong = String((Number(code(user.secret)) + 1) % 1_000_000).padStart(6, "0");
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await s.api("POST", "/api/auth/signin/second-factor", { body: { challenge, code: wrong } })).status,
      );
    expect(statuses).toEqual([401, 401, 401]);
    const locked = await s.api("POST", "/api/auth/signin/second-factor", {
      body: { challenge, code: code(user.secret) },
    });
    expect(locked.status).toBe(429);
    expect(await securityEventDetails(s, "lockout", user.id)).toEqual([
      { action: "signin", scope: "second_factor" },
    ]);
    const failed = (await securityEventDetails(s, "signin_failed", user.id)) as Array<{ reason: string }>;
    expect(failed.filter((f) => f.reason === "wrong_code")).toHaveLength(3);
    // The count is in the database (rate_limits), where every instance reads it.
    const row = await s.database.db
      .selectFrom("rate_limits")
      .select("count")
      .where("key", "=", `2fa:user:${user.id}`)
      .executeTakeFirstOrThrow();
    expect(row.count).toBe(4);
  });

  it("takes a recovery code once, logs it, and gives new codes for a code", async () => {
    const user = await enrolledUser();
    const [recovery] = user.recoveryCodes;
    const first = await signIn(user);
    const done = await s.api("POST", "/api/auth/signin/second-factor", {
      body: { challenge: first.body.challenge, code: ` ${recovery.toUpperCase()} ` },
    });
    expect(done.status).toBe(200);
    expect(await securityEventDetails(s, "recovery_code_used", user.id)).toEqual([{ recoveryCodesLeft: 9 }]);

    const second = await signIn(user);
    const reused = await s.api("POST", "/api/auth/signin/second-factor", {
      body: { challenge: second.body.challenge, code: recovery },
    });
    expect(reused.status).toBe(401);

    const token = done.body.accessToken as string;
    const status = await s.api("GET", "/api/users/me/second-factor", { token });
    expect(status.body.recoveryCodesLeft).toBe(9);
    const fresh = await s.api<{ recoveryCodes: string[] }>(
      "POST",
      "/api/users/me/second-factor/recovery-codes",
      {
        token,
        body: { code: user.recoveryCodes[1] },
      },
    );
    expect(fresh.status).toBe(200);
    expect(fresh.body.recoveryCodes).toHaveLength(10);
    // The old codes stopped working.
    const third = await signIn(user);
    const old = await s.api("POST", "/api/auth/signin/second-factor", {
      body: { challenge: third.body.challenge, code: user.recoveryCodes[2] },
    });
    expect(old.status).toBe(401);
    expect(await securityEventDetails(s, "recovery_codes_regenerated", user.id)).toHaveLength(1);
  });

  it("leads a user the policy requires into enrolment before any session", async () => {
    const user = await newUser(2);
    const member = await newUser(3);
    const set = await s.api("PUT", "/api/second-factor/policy", {
      token: admin,
      body: { required: "admins" },
    });
    expect(set.status).toBe(200);
    try {
      // A member is not concerned and signs in as before.
      expect((await signIn(member)).status).toBe(200);
      const first = await signIn(user);
      expect(first.status).toBe(202);
      expect(first.body.secondFactor).toBe("enrol");
      const challenge = first.body.challenge as string;
      // An enrolment challenge is no sign-in: the second step refuses it.
      const skip = await s.api("POST", "/api/auth/signin/second-factor", {
        body: { challenge, code: "123456" },
      });
      expect(skip.status).toBe(401);
      const begun = await s.api<{ secret: string }>("POST", "/api/auth/signin/second-factor/enrol", {
        body: { challenge },
      });
      expect(begun.status).toBe(200);
      await awayFromStepEdge();
      const done = await s.api<Record<string, unknown>>(
        "POST",
        "/api/auth/signin/second-factor/enrol/confirm",
        {
          body: { challenge, code: code(begun.body.secret) },
        },
      );
      expect(done.status).toBe(200);
      expect(done.body.recoveryCodes).toHaveLength(10);
      expect(typeof done.body.accessToken).toBe("string");
      const token = done.body.accessToken as string;
      const mine = await s.api("GET", "/api/users/me/second-factor", { token });
      expect(mine.body).toMatchObject({ enabled: true, required: true });
      // Required: it cannot be turned off by its user.
      const off = await s.api("POST", "/api/users/me/second-factor/disable", {
        token,
        body: { code: code(begun.body.secret, 1) },
      });
      expect(off.status).toBe(403);
      // Next time, the usual second step.
      expect((await signIn(user)).body.secondFactor).toBe("totp");
    } finally {
      await s.api("PUT", "/api/second-factor/policy", { token: admin, body: { required: "nobody" } });
    }
    const changes = await s.database.db
      .selectFrom("security_events")
      .select("details")
      .where("type", "=", "second_factor_policy_changed")
      .orderBy("created_at")
      .execute();
    expect(changes.map((c) => c.details)).toEqual([
      { from: "nobody", to: "admins" },
      { from: "admins", to: "nobody" },
    ]);
  });

  it("lets an admin reset a user's second factor, logged; only an admin", async () => {
    const user = await enrolledUser();
    const other = await enrolledUser();
    expect(
      (await s.api("DELETE", `/api/users/${user.id}/second-factor`, { token: other.token })).status,
    ).toBe(403);
    const listed = await s.api("GET", `/api/users/${user.id}`, { token: admin });
    expect(listed.body.second_factor).toBe(true);
    const reset = await s.api("DELETE", `/api/users/${user.id}/second-factor`, { token: admin });
    expect(reset.status).toBe(204);
    expect(await securityEventDetails(s, "second_factor_reset", user.id)).toEqual([
      { hadSecondFactor: true },
    ]);
    const event = await s.database.db
      .selectFrom("security_events")
      .select(["actor_id"])
      .where("type", "=", "second_factor_reset")
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(event.actor_id).toBe((await s.api("GET", "/api/users/me", { token: admin })).body.userID);
    // The password alone signs in again (the policy requires nothing here).
    expect((await signIn(user)).status).toBe(200);
    expect((await s.api("GET", `/api/users/${user.id}`, { token: admin })).body.second_factor).toBe(false);
    expect(
      (await s.api("DELETE", `/api/users/${crypto.randomUUID()}/second-factor`, { token: admin })).status,
    ).toBe(404);
  });

  it("keeps the sign-in of an account without a second factor exactly as it was", async () => {
    // Another device than the admin's session of beforeAll, which stays signed in.
    const device = { deviceId: "device-plain", deviceName: DEVICE.deviceName };
    const res = await s.api<Record<string, unknown>>("POST", "/api/auth/signin", {
      body: { email: ADMIN.email, password: ADMIN.password, deviceInfo: device },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "accessToken",
        "accessTokenDuration",
        "accessTokenExpiry",
        "refreshToken",
        "refreshTokenDuration",
        "refreshTokenExpiry",
        "user",
      ].sort(),
    );
    const devices = await s.api<{ data: Array<Record<string, unknown>> }>("GET", "/api/users/me/devices", {
      token: res.body.accessToken as string,
    });
    expect(devices.body.data.find((d) => d.deviceId === device.deviceId)).toMatchObject({
      secondFactor: null,
    });
  });

  it("answers bad input with per-field messages, and an unknown challenge with 401", async () => {
    const bad = await s.api("POST", "/api/auth/signin/second-factor", { body: { code: 5 } });
    expect(bad.status).toBe(400);
    const fields = (bad.body.details as Array<{ field: string }>).map((d) => d.field).sort();
    expect(fields).toEqual(["challenge", "code"]);
    const unknown = await s.api("POST", "/api/auth/signin/second-factor", {
      body: { challenge: "nope", code: "123456" },
    });
    expect(unknown.status).toBe(401);
    const policy = await s.api("PUT", "/api/second-factor/policy", {
      token: admin,
      body: { required: "all" },
    });
    expect(policy.status).toBe(400);
  });
});
