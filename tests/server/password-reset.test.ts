import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, DRIVERS, sleep, startServer, type TestServer } from "./harness";

describe.each(DRIVERS)("password reset on %s", (driver) => {
  let s: TestServer;
  let adminToken: string;
  beforeAll(async () => {
    s = await startServer(driver, { RESET_TOKEN_TTL: "3" });
    adminToken = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  async function createUser(email: string) {
    const res = await s.api("POST", "/api/users", {
      token: adminToken,
      body: {
        first_name: "Rita",
        last_name: "Reset",
        email,
        password: "Old-passw0rd",
        role: 3,
        modules: [1],
      },
    });
    expect(res.status).toBe(201);
  }

  async function latestLink(to: string): Promise<string> {
    const res = await s.api<{ data: Array<{ to: string; text: string }> }>(
      "GET",
      `/api/outbox?q=${encodeURIComponent(to)}`,
      {
        token: adminToken,
      },
    );
    const mail = res.body.data.find((m) => m.to === to);
    const link = mail?.text.match(/https?:\/\/\S+/)?.[0];
    if (!link) throw new Error("no reset link in the outbox");
    return link;
  }

  it("answers the same whether or not the email exists, and mails only real accounts", async () => {
    await createUser("rita@example.com");
    const known = await s.api("POST", "/api/auth/forgot-password", { body: { email: "rita@example.com" } });
    const unknown = await s.api("POST", "/api/auth/forgot-password", {
      body: { email: "ghost@example.com" },
    });
    expect(known.status).toBe(200);
    expect(unknown).toMatchObject({ status: known.status, body: known.body });
    const outbox = await s.api<{ data: Array<{ to: string }> }>("GET", "/api/outbox", { token: adminToken });
    expect(outbox.body.data.map((m) => m.to)).toEqual(["rita@example.com"]);
  });

  it("builds the link from PUBLIC_URL, never from Host or forwarded headers", async () => {
    await s.api("POST", "/api/auth/forgot-password", {
      body: { email: "rita@example.com" },
      headers: { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" },
    });
    const link = await latestLink("rita@example.com");
    expect(link).toMatch(/^https:\/\/atelier\.example\.test\/manage\/resetpassword\/[A-Za-z0-9_-]{40,}$/);
  });

  it("resets once, revokes every session, and lets the new password sign in", async () => {
    await createUser("sam@example.com");
    const session = await s.signIn("sam@example.com", "Old-passw0rd");
    await s.api("POST", "/api/auth/forgot-password", { body: { email: "sam@example.com" } });
    const id = (await latestLink("sam@example.com")).split("/").pop() as string;

    const short = await s.api("POST", "/api/auth/reset-password", { body: { id, password: "short" } });
    expect(short.status).toBe(400);
    expect(short.body.details).toEqual([
      { field: "password", message: "Password must be at least 8 characters" },
    ]);

    const done = await s.api("POST", "/api/auth/reset-password", { body: { id, password: "New-passw0rd" } });
    expect(done.status).toBe(200);
    const again = await s.api("POST", "/api/auth/reset-password", {
      body: { id, password: "Other-passw0rd" },
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("This reset link is invalid or has expired.");

    expect((await s.api("GET", "/api/users/me", { token: session.accessToken })).status).toBe(401);
    expect(
      (await s.api("POST", "/api/auth/refreshtokenapp", { body: { refreshToken: session.refreshToken } }))
        .status,
    ).toBe(401);
    await expect(s.signIn("sam@example.com", "Old-passw0rd")).rejects.toThrow(/401/);
    await expect(s.signIn("sam@example.com", "New-passw0rd")).resolves.toHaveProperty("accessToken");
  });

  it("refuses an expired link", async () => {
    await s.api("POST", "/api/auth/forgot-password", { body: { email: ADMIN.email } });
    const id = (await latestLink(ADMIN.email)).split("/").pop() as string;
    await sleep(3100);
    const res = await s.api("POST", "/api/auth/reset-password", { body: { id, password: "New-passw0rd" } });
    expect(res.status).toBe(400);
  });

  it("stores only a hash of the reset id", async () => {
    // A fresh link: the previous one expired, so the outbox shows it redacted.
    await s.api("POST", "/api/auth/forgot-password", { body: { email: ADMIN.email } });
    const link = await latestLink(ADMIN.email);
    const id = link.split("/").pop() as string;
    const rows = await s.database.db.selectFrom("password_resets").select("token_hash").execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash === id)).toBe(false);
  });
});
