/**
 * The second factor attacked, on both engines: challenges outliving the password that earned
 * them, a secret the server can no longer open, codes as people type them, one recovery code
 * sent twice at once, challenges of one kind used for another, and an admin resetting their own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../server/security/secret-box";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { awayFromStepEdge, code, PASSWORD } from "./second-factor-fixtures";

let serial = 0;
type Answer = Record<string, unknown>;

describe.each(DRIVERS)("second factor abused on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let adminId: string;

  beforeAll(async () => {
    s = await startServer(driver, { AUTH_MAX_ATTEMPTS: "10" });
    const signedIn = await s.signIn();
    admin = signedIn.accessToken;
    adminId = signedIn.user.userID;
  });
  afterAll(() => s?.close());

  async function newUser() {
    const email = `abuse-${++serial}-${Date.now()}@example.com`;
    const made = await s.api("POST", "/api/users", {
      token: admin,
      body: { first_name: "Ann", last_name: "Abuse", email, password: PASSWORD, role: 3, modules: [1] },
    });
    expect(made.status).toBe(201);
    return {
      id: String(made.body.id),
      email,
      device: { deviceId: `dev-${email}`, deviceName: "Linux Chrome" },
    };
  }

  const signIn = (
    user: { email: string; device: { deviceId: string; deviceName: string } },
    password = PASSWORD,
  ) =>
    s.api<Answer>("POST", "/api/auth/signin", {
      body: { email: user.email, password, deviceInfo: user.device },
    });

  async function enrolledUser() {
    const user = await newUser();
    const token = (await s.signIn(user.email, PASSWORD, user.device)).accessToken;
    const begun = await s.api<{ secret: string }>("POST", "/api/users/me/second-factor/enrol", { token });
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
    return { ...user, token, secret: begun.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
  }

  async function challengeOf(user: Parameters<typeof signIn>[0]) {
    const first = await signIn(user);
    expect(first.status).toBe(202);
    return String(first.body.challenge);
  }
  const secondStep = (challenge: string, given: string) =>
    s.api<Answer>("POST", "/api/auth/signin/second-factor", { body: { challenge, code: given } });

  it("ends a challenge when an admin sets a new password in between", async () => {
    const user = await enrolledUser();

    const beforeAdminChange = await challengeOf(user);
    const changed = await s.api("PATCH", `/api/users/${user.id}`, {
      token: admin,
      body: { password: "Another-sturdy-passw0rd-1" },
    });
    expect(changed.status).toBe(200);
    const late = await secondStep(beforeAdminChange, user.recoveryCodes[0]);
    expect(late.status).toBe(401);
    expect(late.body.message).toBe("This sign-in has expired. Sign in again with your password.");
  });

  it("ends a challenge when the user changes their own password in between", async () => {
    const user = await enrolledUser();
    const challenge = await challengeOf(user);
    const changed = await s.api("POST", "/api/users/me/password", {
      token: user.token,
      body: { currentPassword: PASSWORD, newPassword: "Another-sturdy-passw0rd-2" },
    });
    expect(changed.status).toBe(200);
    expect((await secondStep(challenge, user.recoveryCodes[0])).status).toBe(401);
  });

  it("ends a challenge when an admin resets the user's second factor in between", async () => {
    const user = await enrolledUser();
    const challenge = await challengeOf(user);
    expect((await s.api("DELETE", `/api/users/${user.id}/second-factor`, { token: admin })).status).toBe(204);
    expect((await secondStep(challenge, user.recoveryCodes[0])).status).toBe(401);
  });

  it("answers a secret it cannot open with 503 in words, and a recovery code still signs in", async () => {
    const user = await enrolledUser();
    // What a lost ENCRYPTION_KEY leaves: a value sealed with a key this server does not have.
    const foreign = createSecretBox(["a key this server never had, 32 chars or more"]);
    await s.database.db
      .updateTable("user_second_factors")
      .set({ secret_sealed: foreign.seal(user.secret, `user_second_factors.secret:${user.id}`) })
      .where("user_id", "=", user.id)
      .execute();
    const challenge = await challengeOf(user);
    const refused = await secondStep(challenge, code(user.secret));
    expect(refused.status).toBe(503);
    expect(String(refused.body.message)).toMatch(/ENCRYPTION_KEY.*recovery code.*admin/s);
    const disable = await s.api("POST", "/api/users/me/second-factor/disable", {
      token: user.token,
      body: { code: code(user.secret) },
    });
    expect(disable.status).toBe(503);
    const rescued = await secondStep(challenge, user.recoveryCodes[0]);
    expect(rescued.status).toBe(200);
    expect(rescued.body.accessToken).toBeTruthy();
  });

  it("takes a code typed with a space or a dash; refuses other digits and lengths with 401", async () => {
    const user = await enrolledUser();
    const challenge = await challengeOf(user);
    for (const wrong of ["١٢٣٤٥٦", "１２３４５６", "1234567", "12345", "12a456"])
      expect((await secondStep(challenge, wrong)).status, wrong).toBe(401);
    const now = code(user.secret);
    const dashed = await secondStep(challenge, `${now.slice(0, 3)}-${now.slice(3)}`);
    expect(dashed.status).toBe(200);
    const again = await challengeOf(user);
    const next = code(user.secret, 1);
    expect((await secondStep(again, ` ${next.slice(0, 3)} ${next.slice(3)} `)).status).toBe(200);
  });

  it("accepts one recovery code once when sent twice at the same moment", async () => {
    const user = await enrolledUser();
    const [a, b] = [await challengeOf(user), await challengeOf(user)];
    const answers = await Promise.all([
      secondStep(a, user.recoveryCodes[3]),
      secondStep(b, user.recoveryCodes[3].toUpperCase()),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it("spends one code when one challenge is sent twice at once with two recovery codes, and none on a wrong code", async () => {
    const user = await enrolledUser();
    const challenge = await challengeOf(user);
    const wrong = await secondStep(challenge, "000000");
    expect(wrong.status).toBe(401);
    const answers = await Promise.all([
      secondStep(challenge, user.recoveryCodes[5]),
      secondStep(challenge, user.recoveryCodes[6]),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
    // The code the refused request carried was not spent: it still signs in.
    const spentIndex = answers[0].status === 200 ? 5 : 6;
    const kept = user.recoveryCodes[spentIndex === 5 ? 6 : 5];
    expect((await secondStep(await challengeOf(user), kept)).status).toBe(200);
    expect((await secondStep(await challengeOf(user), user.recoveryCodes[spentIndex])).status).toBe(401);
  });

  it("keeps each challenge to its own step: enrol, verify, refresh", async () => {
    const enrolled = await enrolledUser();
    const verify = await challengeOf(enrolled);
    expect(
      (await s.api("POST", "/api/auth/signin/second-factor/enrol", { body: { challenge: verify } })).status,
    ).toBe(401);
    expect(
      (await s.api("POST", "/api/auth/refreshtokenapp", { body: { refreshToken: verify } })).status,
    ).toBe(401);

    const plain = await newUser();
    const set = await s.api("PUT", "/api/second-factor/policy", {
      token: admin,
      body: { required: "everyone" },
    });
    expect(set.status).toBe(200);
    try {
      const first = await signIn(plain);
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ secondFactor: "enrol" });
      expect(first.body).not.toHaveProperty("accessToken");
      const enrol = String(first.body.challenge);
      expect((await secondStep(enrol, "123456")).status).toBe(401);
      expect(
        (await s.api("POST", "/api/auth/refreshtokenapp", { body: { refreshToken: enrol } })).status,
      ).toBe(401);
      expect((await s.api("GET", "/api/users/me/second-factor", { token: enrol })).status).toBe(401);
    } finally {
      await s.api("PUT", "/api/second-factor/policy", { token: admin, body: { required: "nobody" } });
    }
  });

  it("refuses an admin resetting their own second factor, and a non-admin resetting anyone's", async () => {
    const own = await s.api<Answer>("DELETE", `/api/users/${adminId}/second-factor`, { token: admin });
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/own two-step sign-in.*My account/);
    const member = await enrolledUser();
    const other = await enrolledUser();
    const signedIn = await challengeOf(member);
    const tokens = await secondStep(signedIn, member.recoveryCodes[0]);
    const token = String(tokens.body.accessToken);
    expect((await s.api("DELETE", `/api/users/${other.id}/second-factor`, { token })).status).toBe(403);
    expect(
      (await s.api("PUT", "/api/second-factor/policy", { token, body: { required: "nobody" } })).status,
    ).toBe(403);
  });
});
