/**
 * Reset links are secrets, on PGlite and PostgreSQL: their page URLs are redacted in the
 * request log (captured from the server's real logger), the outbox shows a live link to
 * admins only, and once a link is used, voided or expired the stored mail no longer holds it
 * (list and detail answers, and the row itself). Over SMTP a delivered mail is scrubbed too.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINK_GONE } from "../../server/mail/outbox-secrets";
import { redactUrl } from "../../server/security/redact";
import { ADMIN, DRIVERS, startServer, type TestServer } from "./harness";
import { startSmtp, type TestSmtp } from "./smtp";

interface Mail {
  id: string;
  to: string;
  text: string;
  status: string;
}

/** Every line the server logs, kept as text. */
function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, stream, text: () => lines.join("\n") };
}

const LINK = /https?:\/\/\S+\/manage\/resetpassword\/(\S+)/;

describe("redactUrl", () => {
  it("redacts both reset page forms, any case, query included, and nothing else", () => {
    expect(redactUrl("/manage/resetpassword/abcDEF_-123")).toBe("/manage/resetpassword/[redacted]");
    expect(redactUrl("/manage/resetpassword/12/abc?x=1")).toBe("/manage/resetpassword/[redacted]");
    expect(redactUrl("/MANAGE/ResetPassword/abc")).toBe("/MANAGE/ResetPassword/[redacted]");
    expect(redactUrl("/manage/resetpassword%2Fabc")).toBe("/manage/resetpassword/[redacted]");
    expect(redactUrl("/manage/resetpassword")).toBe("/manage/resetpassword");
    expect(redactUrl("/api/users?q=resetpassword")).toBe("/api/users?q=resetpassword");
  });
});

describe.each(DRIVERS)("reset link secrecy on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const log = logCapture();

  beforeAll(async () => {
    s = await startServer(driver, {}, { logger: { level: "info", stream: log.stream } });
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  let userCount = 0;
  async function createUser(modules = [1], role = 3) {
    const email = `secret${++userCount}-${driver}@example.com`;
    const res = await s.api<{ id: string }>("POST", "/api/users", {
      token: admin,
      body: { first_name: "Rae", last_name: "Set", email, password: "Sturdy-passw0rd!", role, modules },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.id, email, password: "Sturdy-passw0rd!" };
  }

  /** Asks for a reset and answers the newest mail to `email`, read as an admin. */
  async function requestLink(email: string) {
    expect((await s.api("POST", "/api/auth/forgot-password", { body: { email } })).status).toBe(200);
    const mail = await newestMail(email);
    const match = LINK.exec(mail.text);
    if (!match) throw new Error(`no live link in the outbox: ${mail.text}`);
    return { mail, link: match[0], id: match[1] };
  }

  async function newestMail(email: string) {
    const res = await s.api<{ data: Mail[] }>("GET", `/api/outbox?q=${encodeURIComponent(email)}`, {
      token: admin,
    });
    expect(res.status).toBe(200);
    const mail = res.body.data.find((m) => m.to === email);
    if (!mail) throw new Error(`no mail to ${email}`);
    return mail;
  }

  const detail = (id: string, token = admin) => s.api<Mail>("GET", `/api/outbox/${id}`, { token });

  async function storedRow(id: string) {
    return s.database.db
      .selectFrom("mail_outbox")
      .select(["text_body", "secret_link", "secret_hash", "secret_expires_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  }

  it("never writes a reset page's URL, nor the token, to the request log", async () => {
    const user = await createUser();
    const { link, id } = await requestLink(user.email);
    const path = new URL(link).pathname;
    // The page in both forms (the app is not built here, so it answers 503: logged all the same).
    await fetch(s.baseUrl + path);
    await fetch(`${s.baseUrl}/manage/resetpassword/${id.length}/${id}?from=mail`);
    await fetch(`${s.baseUrl}/manage/resetpassword/${id}/`);
    const done = await s.api("POST", "/api/auth/reset-password", {
      body: { id, password: "New-sturdy-passw0rd!" },
    });
    expect(done.status).toBe(200);

    await expect
      .poll(() => log.lines.filter((l) => l.includes("resetpassword")).length)
      .toBeGreaterThanOrEqual(3);
    const text = log.text();
    expect(text).not.toContain(id);
    const urls = log.lines
      .map((l) => JSON.parse(l) as { req?: { url?: string } })
      .map((l) => l.req?.url)
      .filter((u): u is string => !!u?.includes("resetpassword"));
    expect(new Set(urls)).toEqual(new Set(["/manage/resetpassword/[redacted]"]));
    // The capture works: other requests are logged with their URL as is.
    expect(urls.length).toBe(3);
    expect(text).toContain('"url":"/api/auth/reset-password"');
  });

  it("keeps an unused, unexpired link readable for admins, in the list and the detail", async () => {
    const user = await createUser();
    const { mail, link } = await requestLink(user.email);
    const one = await detail(mail.id);
    expect(one.status).toBe(200);
    expect(one.body.text).toContain(link);
    // A refused password does not spend the link.
    const { id } = await requestLink(user.email);
    const refused = await s.api("POST", "/api/auth/reset-password", { body: { id, password: "short" } });
    expect(refused.status).toBe(400);
    expect((await newestMail(user.email)).text).toContain(id);
  });

  it("lets only admins read the outbox: 401 without a token, 403 for users (Users module or not)", async () => {
    const user = await createUser();
    const { mail } = await requestLink(user.email);
    expect((await s.api("GET", "/api/outbox")).status).toBe(401);
    expect((await s.api("GET", `/api/outbox/${mail.id}`)).status).toBe(401);
    for (const modules of [[1], [10]]) {
      const reader = await createUser(modules);
      const token = (await s.signIn(reader.email, reader.password)).accessToken;
      const listed = await s.api("GET", "/api/outbox", { token });
      expect(listed.status).toBe(403);
      expect(JSON.stringify(listed.body)).not.toContain("resetpassword");
      expect((await detail(mail.id, token)).status).toBe(403);
    }
    expect((await detail("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await s.api("GET", "/api/outbox/not-a-uuid", { token: admin })).status).toBe(400);
  });

  it("redacts a used link in the list, the detail and the stored row", async () => {
    const user = await createUser();
    const { mail, id } = await requestLink(user.email);
    const done = await s.api("POST", "/api/auth/reset-password", {
      body: { id, password: "Fresh-sturdy-passw0rd!" },
    });
    expect(done.status).toBe(200);

    // Scrubbed with the reset's own commit, before anyone reads the outbox.
    const row = await storedRow(mail.id);
    expect(row.text_body).not.toContain(id);
    expect(row.text_body).toContain(LINK_GONE);
    expect(row).toMatchObject({ secret_link: null, secret_hash: null, secret_expires_at: null });

    const listed = await newestMail(user.email);
    expect(listed.text).not.toContain(id);
    expect(listed.text).toContain(LINK_GONE);
    expect(listed.text).toContain("Someone asked to reset the password");
    const one = await detail(mail.id);
    expect(one.body.text).toBe(listed.text);
  });

  it("redacts every other outstanding link of the user once one is used", async () => {
    const user = await createUser();
    const first = await requestLink(user.email);
    const second = await requestLink(user.email);
    expect(first.id).not.toBe(second.id);
    expect((await detail(first.mail.id)).body.text).toContain(first.id);
    const done = await s.api("POST", "/api/auth/reset-password", {
      body: { id: second.id, password: "Another-sturdy-passw0rd!" },
    });
    expect(done.status).toBe(200);
    for (const { mail, id } of [first, second]) {
      expect((await detail(mail.id)).body.text).not.toContain(id);
      expect((await storedRow(mail.id)).text_body).not.toContain(id);
    }
  });

  it("redacts an expired link in the list, the detail and the stored row", async () => {
    const user = await createUser();
    const { mail, id } = await requestLink(user.email);
    // Time passes: the link's expiry moves into the past, as RESET_TOKEN_TTL would make it.
    await s.database.db
      .updateTable("password_resets")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("user_id", "=", user.id)
      .execute();
    const one = await detail(mail.id);
    expect(one.body.text).not.toContain(id);
    expect(one.body.text).toContain(LINK_GONE);
    expect((await newestMail(user.email)).text).toBe(one.body.text);
    expect((await storedRow(mail.id)).text_body).not.toContain(id);
    // And the link is indeed dead.
    const late = await s.api("POST", "/api/auth/reset-password", {
      body: { id, password: "Late-sturdy-passw0rd!" },
    });
    expect(late.status).toBe(400);
  });

  it("redacts a link whose recorded expiry passed even when its reset row is gone", async () => {
    const user = await createUser();
    const { mail, id } = await requestLink(user.email);
    const row = await storedRow(mail.id);
    expect(row.secret_expires_at).toBeInstanceOf(Date);
    expect(row.secret_link).toContain(id);
    await s.database.db.deleteFrom("password_resets").where("user_id", "=", user.id).execute();
    expect((await detail(mail.id)).body.text).toContain(id); // not expired yet: still readable
    await s.database.db
      .updateTable("mail_outbox")
      .set({ secret_expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", mail.id)
      .execute();
    expect((await detail(mail.id)).body.text).not.toContain(id);
    expect((await storedRow(mail.id)).text_body).not.toContain(id);
  });

  it("answers the admin's own mails as before (a mail without a link is untouched)", async () => {
    await s.database.db
      .insertInto("mail_outbox")
      .values({ to_address: ADMIN.email, subject: "Plain", text_body: "No link here.", status: "stored" })
      .execute();
    const mail = await newestMail(ADMIN.email);
    expect(mail.text).toBe("No link here.");
  });
});

describe("reset link secrecy over SMTP", () => {
  let smtp: TestSmtp;
  let received: string[];
  let s: TestServer;

  beforeAll(async () => {
    smtp = await startSmtp();
    received = smtp.received;
    s = await startServer("pglite", { SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it("delivers the live link by mail and keeps no readable copy once sent", async () => {
    const admin = (await s.signIn()).accessToken;
    await s.api("POST", "/api/auth/forgot-password", { body: { email: ADMIN.email } });
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
    expect(received[0]).toMatch(/\/manage\/resetpassword\/[A-Za-z0-9_-]{40,}/);
    let mail: Mail | undefined;
    await expect
      .poll(
        async () => {
          const res = await s.api<{ data: Mail[] }>("GET", "/api/outbox", { token: admin });
          mail = res.body.data[0];
          return mail?.status;
        },
        { timeout: 30_000 },
      )
      .toBe("sent");
    expect(mail?.text).not.toMatch(/resetpassword/);
    expect(mail?.text).toContain(LINK_GONE);
  });
});
