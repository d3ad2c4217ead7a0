/**
 * The second factor on two instances of one PostgreSQL database: the attempt limit is one for
 * both, and a code is accepted once by the two together.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DEVICE, DRIVERS, startInstances, type TestServer } from "./harness";
import { awayFromStepEdge, code, PASSWORD } from "./second-factor-fixtures";

describe.runIf(DRIVERS.includes("postgres"))("second factor across two instances", () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    [a, b] = await startInstances(2, { AUTH_MAX_ATTEMPTS: "3" });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** A user enrolled through the two instances: their email, device and secret. */
  async function enrolled(tag: string) {
    const admin = (await a.signIn()).accessToken;
    const email = `tfa-${tag}-${Date.now()}@example.com`;
    const made = await a.api("POST", "/api/users", {
      token: admin,
      body: { first_name: "Clu", last_name: "Ster", email, password: PASSWORD, role: 3, modules: [1] },
    });
    expect(made.status).toBe(201);
    const device = { deviceId: `cluster-${tag}`, deviceName: "Linux Chrome" };
    const token = (await a.signIn(email, PASSWORD, device)).accessToken;
    const { secret } = (
      await a.api<{ secret: string }>("POST", "/api/users/me/second-factor/enrol", { token })
    ).body;
    await awayFromStepEdge();
    const confirmed = await b.api("POST", "/api/users/me/second-factor/confirm", {
      token,
      body: { code: code(secret, -1) },
    });
    expect(confirmed.status).toBe(200);
    return { email, device, secret };
  }

  const challengeOn = async (s: TestServer, user: { email: string; device: typeof DEVICE }) =>
    (
      await s.api("POST", "/api/auth/signin", {
        body: { email: user.email, password: PASSWORD, deviceInfo: user.device },
      })
    ).body.challenge as string;

  it("counts wrong codes on either instance toward one limit", async () => {
    const user = await enrolled("limit");
    const challenge = await challengeOn(a, user);
    const wrong = String((Number(code(user.secret)) + 3) % 1_000_000).padStart(6, "0");
    const statuses: number[] = [];
    for (const s of [a, b, a, b])
      statuses.push(
        (await s.api("POST", "/api/auth/signin/second-factor", { body: { challenge, code: wrong } })).status,
      );
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it("accepts one code once, even sent to both instances at the same moment", async () => {
    const user = await enrolled("race");
    const challenges = await Promise.all([a, b].map((s) => challengeOn(s, user)));
    const now = code(user.secret);
    const raced = await Promise.all(
      [a, b].map((s, i) =>
        s.api("POST", "/api/auth/signin/second-factor", { body: { challenge: challenges[i], code: now } }),
      ),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([200, 401]);
  });
});
