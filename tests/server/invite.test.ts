/**
 * Inviting a user by mail: created without a password, a set-password link in the outbox
 * (INVITE_TOKEN_TTL), no sign-in before it is used, single use, resendable while pending.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVITE_DONE, RESET_LINK_INVALID } from "../../server/auth/auth.service";
import { COMMON_PASSWORD } from "../../server/auth/passwords";
import { describeDuration, INVITE_ALREADY_ACCEPTED } from "../../server/modules/users/invite.service";
import { DRIVERS, type SignedIn, startServer, type TestServer } from "./harness";

describe("describeDuration", () => {
  it("words a link lifetime", () => {
    expect(describeDuration(7 * 86_400)).toBe("7 days");
    expect(describeDuration(86_400)).toBe("1 day");
    expect(describeDuration(7200)).toBe("2 hours");
    expect(describeDuration(1800)).toBe("30 minutes");
    expect(describeDuration(5)).toBe("1 minute");
  });
});

describe.each(DRIVERS)("invitations on %s", (driver) => {
  let s: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    s = await startServer(driver);
    admin = await s.signIn();
  });
  afterAll(() => s?.close());

  let seq = 0;
  const device = { deviceId: "invitee-device", deviceName: "Linux Firefox" };
  const body = (email: string, extra: Record<string, unknown> = { invite: true }) => ({
    first_name: "Ivy",
    last_name: "Invitee",
    email,
    role: 3,
    modules: [1],
    ...extra,
  });
  const nextEmail = () => `ivy-${++seq}-${driver}@example.com`;

  async function mailsTo(to: string) {
    const res = await s.api<{ data: Array<{ to: string; subject: string; text: string }> }>(
      "GET",
      `/api/outbox?q=${encodeURIComponent(to)}&sort=-created_at`,
      { token: admin.accessToken },
    );
    expect(res.status).toBe(200);
    return res.body.data.filter((m) => m.to === to);
  }
  const linkIn = (text: string) => text.match(/https?:\/\/\S+\/manage\/resetpassword\/\S+/)?.[0] ?? null;
  const idOf = (link: string) => link.split("/").pop() as string;

  async function invite(email = nextEmail()) {
    const res = await s.api<{ id: string; invite_pending: boolean }>("POST", "/api/users", {
      token: admin.accessToken,
      body: body(email),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [mail] = await mailsTo(email);
    const link = linkIn(mail?.text ?? "");
    if (!link) throw new Error("no invitation link in the outbox");
    return { id: res.body.id, email, link, mail, user: res.body };
  }
  const setPassword = (id: string, password: string) =>
    s.api("POST", "/api/auth/reset-password", { body: { id, password } });
  const info = (id: string) => s.api("POST", "/api/auth/reset-password/info", { body: { id } });

  it("creates the user without a usable password and mails a set-password link", async () => {
    const { id, email, link, mail, user } = await invite();
    expect(user.invite_pending).toBe(true);
    expect(mail.subject).toBe("You are invited to Atelier");
    expect(mail.text).toContain("expires in 7 days");
    expect(link).toMatch(/^https:\/\/atelier\.example\.test\/manage\/resetpassword\/[A-Za-z0-9_-]{40,}$/);
    const row = await s.database.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    const reset = await s.database.db
      .selectFrom("password_resets")
      .select(["kind", "expires_at"])
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(reset.kind).toBe("invite");
    const days = (reset.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const event = await s.database.db
      .selectFrom("security_events")
      .select(["actor_id", "email"])
      .where("type", "=", "user_invited")
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(event).toEqual({ actor_id: admin.user.userID, email });
  });

  it("lets the invited user sign in only after setting a password, with a single-use link", async () => {
    const { email, link } = await invite();
    const before = await s.api("POST", "/api/auth/signin", {
      body: { email, password: "", deviceInfo: device },
    });
    expect(before.status).toBe(400); // empty password: schema
    for (const guess of ["Vivid-Lantern-42", "not-a-real-password"]) {
      const res = await s.api("POST", "/api/auth/signin", {
        body: { email, password: guess, deviceInfo: device },
      });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("Invalid email or password");
    }

    expect(await info(idOf(link))).toMatchObject({ status: 200, body: { kind: "invite" } });
    const common = await setPassword(idOf(link), "password123");
    expect(common.status).toBe(400);
    expect(common.body.details).toEqual([{ field: "password", message: COMMON_PASSWORD }]);

    const done = await setPassword(idOf(link), "Vivid-Lantern-42");
    expect(done.status).toBe(200);
    expect(done.body.message).toBe(INVITE_DONE);
    await expect(s.signIn(email, "Vivid-Lantern-42", device)).resolves.toHaveProperty("accessToken");

    const again = await setPassword(idOf(link), "Another-Lantern-43");
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(RESET_LINK_INVALID);
    expect((await info(idOf(link))).status).toBe(400);
    await expect(s.signIn(email, "Vivid-Lantern-42", device)).resolves.toHaveProperty("accessToken");
  });

  it("tells a reset link from an invitation and refuses unknown or expired ones", async () => {
    const { id, link } = await invite();
    expect((await info("not-a-link")).body).toMatchObject({ statusCode: 400, message: RESET_LINK_INVALID });
    await s.database.db
      .updateTable("password_resets")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("user_id", "=", id)
      .execute();
    expect((await info(idOf(link))).status).toBe(400);
    expect((await setPassword(idOf(link), "Vivid-Lantern-42")).status).toBe(400);

    await s.api("POST", "/api/auth/forgot-password", { body: { email: "admin@example.com" } });
    const [mail] = await mailsTo("admin@example.com");
    expect(await info(idOf(linkIn(mail.text) as string))).toMatchObject({
      status: 200,
      body: { kind: "reset" },
    });
  });

  it("resends a pending invitation with a new link that replaces the old one", async () => {
    const { id, email, link } = await invite();
    const resent = await s.api("POST", `/api/users/${id}/invite`, { token: admin.accessToken });
    expect(resent.status).toBe(200);
    expect(resent.body.message).toContain(email);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    const newLink = mails.map((m) => linkIn(m.text)).find((l) => l && l !== link) as string;
    expect(newLink).toBeTruthy();
    expect((await setPassword(idOf(link), "Vivid-Lantern-42")).status).toBe(400);
    expect((await setPassword(idOf(newLink), "Vivid-Lantern-42")).status).toBe(200);

    const accepted = await s.api("POST", `/api/users/${id}/invite`, { token: admin.accessToken });
    expect(accepted.status).toBe(409);
    expect(accepted.body.message).toBe(INVITE_ALREADY_ACCEPTED);
    const user = await s.api("GET", `/api/users/${id}`, { token: admin.accessToken });
    expect(user.body.invite_pending).toBe(false);
  });

  it("answers 404 for an unknown user and 403 for a non-admin", async () => {
    const missing = await s.api("POST", "/api/users/00000000-0000-4000-8000-000000000000/invite", {
      token: admin.accessToken,
    });
    expect(missing.status).toBe(404);
    const { id } = await invite();
    const email = nextEmail();
    await s.api("POST", "/api/users", {
      token: admin.accessToken,
      body: body(email, { password: "Plain-Lantern-44", modules: [10] }),
    });
    const plain = await s.signIn(email, "Plain-Lantern-44", device);
    const res = await s.api("POST", `/api/users/${id}/invite`, { token: plain.accessToken });
    expect(res.status).toBe(403);
  });

  it("needs either a password or an invitation, not both, and sends nothing on a refused create", async () => {
    const email = nextEmail();
    const neither = await s.api("POST", "/api/users", {
      token: admin.accessToken,
      body: body(email, {}),
    });
    expect(neither.status).toBe(400);
    expect(neither.body.details).toEqual([{ field: "password", message: "Password is required" }]);
    const both = await s.api("POST", "/api/users", {
      token: admin.accessToken,
      body: body(email, { invite: true, password: "Vivid-Lantern-42" }),
    });
    expect(both.status).toBe(400);
    expect((both.body.details as Array<{ field: string }>)[0].field).toBe("password");
    const { email: taken } = await invite();
    const duplicate = await s.api("POST", "/api/users", { token: admin.accessToken, body: body(taken) });
    expect(duplicate.status).toBe(409);
    const disabled = await s.api("POST", "/api/users", {
      token: admin.accessToken,
      body: body(email, { invite: true, active: false }),
    });
    expect(disabled.status).toBe(400);
    expect(disabled.body.details).toEqual([
      { field: "active", message: "Enable the account to send an invitation email" },
    ]);
    expect(await mailsTo(email)).toHaveLength(0);
    expect(await mailsTo(taken)).toHaveLength(1);
    const rows = await s.database.db.selectFrom("users").select("id").where("email", "=", email).execute();
    expect(rows).toHaveLength(0);
  });

  it("searches and filters the outbox as docs/platform-api.md says, and refuses other fields", async () => {
    const { email } = await invite();
    const outbox = (query: string) =>
      s.api<{
        data: Array<{ to: string; status: string }>;
        total: number;
        message?: string;
        details?: unknown;
      }>("GET", `/api/outbox?${query}`, { token: admin.accessToken });
    const filters = (f: unknown) => `filters=${encodeURIComponent(JSON.stringify(f))}`;
    // q: the To address, any case; the subject too.
    const byAddress = await outbox(`q=${encodeURIComponent(email.toUpperCase())}`);
    expect(byAddress.body.data.map((m) => m.to)).toEqual([email]);
    const bySubject = await outbox(
      `q=invited%20to%20atelier&${filters([{ field: "to_address", operator: "eq", value: email }])}`,
    );
    expect(bySubject.body.data.map((m) => m.to)).toEqual([email]);
    // filters: status and to_address (no SMTP in tests: the mail is stored).
    const stored = await outbox(
      filters([
        { field: "status", operator: "eq", value: "stored" },
        { field: "to_address", operator: "startswith", value: email.slice(0, 8) },
      ]),
    );
    expect(stored.body.data.map((m) => [m.to, m.status])).toContainEqual([email, "stored"]);
    const sent = await outbox(
      filters([
        { field: "status", operator: "eq", value: "sent" },
        { field: "to_address", operator: "eq", value: email },
      ]),
    );
    expect(sent.body.total).toBe(0);
    const subject = await outbox(filters([{ field: "subject", operator: "contains", value: "x" }]));
    expect(subject.status).toBe(400);
    expect(subject.body.details).toEqual([{ field: "filters", message: "Cannot filter by 'subject'" }]);
    const sortCc = await outbox("sort=cc");
    expect(sortCc.status).toBe(400);
    expect(sortCc.body.details).toEqual([{ field: "sort", message: "Cannot sort by 'cc'" }]);
    expect((await outbox("sort=status,-to_address&pageSize=200")).status).toBe(200);
  });
});
