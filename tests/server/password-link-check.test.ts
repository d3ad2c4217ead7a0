/**
 * A set-password link is checked when the page opens (issue 13), by
 * `POST /api/auth/reset-password/info`: the check never uses the link up, however often the
 * page is opened, and a used or expired link is called dead before any password is typed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESET_LINK_INVALID } from "../../server/auth/auth.service";
import { hashToken } from "../../server/auth/tokens";
import { DRIVERS, startServer, type TestServer } from "./harness";

describe.each(DRIVERS)("set-password link check on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let serial = 0;

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A user and a reset link of theirs, read from the outbox. */
  async function resetLink() {
    const email = `link-check-${++serial}@example.com`;
    const created = await s.api("POST", "/api/users", {
      token: admin,
      body: { first_name: "Lin", last_name: "Check", email, password: "Link-passw0rd", role: 3, modules: [] },
    });
    expect(created.status).toBe(201);
    expect((await s.api("POST", "/api/auth/forgot-password", { body: { email } })).status).toBe(200);
    const outbox = await s.api<{ data: Array<{ to: string; text: string }> }>(
      "GET",
      "/api/outbox?page=1&pageSize=50&sort=-created_at",
      { token: admin },
    );
    const mail = outbox.body.data.find((m) => m.to.includes(email));
    const id = /\/manage\/resetpassword\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
    if (!id) throw new Error(`no reset link mailed to ${email}`);
    return { id, email };
  }

  const check = (id: string) => s.api("POST", "/api/auth/reset-password/info", { body: { id } });
  const reset = (id: string, password: string) =>
    s.api("POST", "/api/auth/reset-password", { body: { id, password } });

  it("checking a live link does not use it up: opened three times, it still resets once", async () => {
    const { id } = await resetLink();
    for (let i = 0; i < 3; i++)
      expect(await check(id)).toMatchObject({ status: 200, body: { kind: "reset" } });
    expect((await reset(id, "Fresh-passw0rd!")).status).toBe(200);
    // Used now: the check says so, as the reset would.
    expect(await check(id)).toMatchObject({ status: 400, body: { message: RESET_LINK_INVALID } });
    expect((await reset(id, "Other-passw0rd!")).status).toBe(400);
  });

  it("an expired link is dead at the check, before any password is sent", async () => {
    const { id } = await resetLink();
    await s.database.db
      .updateTable("password_resets")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("token_hash", "=", hashToken(id))
      .execute();
    const answer = await check(id);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ message: RESET_LINK_INVALID, details: [{ field: "id" }] });
  });

  it("a link voided by a newer one is dead at the check", async () => {
    const first = await resetLink();
    // An admin setting the password voids pending links.
    const users = await s.api<{ data: Array<{ id: string; email: string }> }>(
      "GET",
      `/api/users?q=${encodeURIComponent(first.email)}`,
      { token: admin },
    );
    const user = users.body.data.find((u) => u.email === first.email);
    expect(user).toBeDefined();
    await s.api("PATCH", `/api/users/${user?.id}`, {
      token: admin,
      body: { password: "Admin-set-passw0rd" },
    });
    expect((await check(first.id)).status).toBe(400);
  });
});
