/**
 * Defects found by attacking the routes of issue 10 as a hostile user, on PGlite and
 * PostgreSQL:
 * - parallel wrong passwords (sign-in, or the current password of a password change) all
 *   passed the per-account limit, read before any of them was counted;
 * - a set-password link mailed to an address an admin then corrected still claimed the account;
 * - parallel completes of one resumable upload each made a PDF.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, type SignedIn, securityEventDetails, startServer, type TestServer } from "./harness";

const MAX_ATTEMPTS = 5;
const PARALLEL = 20;
const CHUNK = 64 * 1024;
const PASSWORD = "Old-passw0rd";

/** Bytes that sniff as a PDF (the first chunk must be one); processing may fail, that is fine. */
function fakePdf(size: number): Buffer {
  const file = Buffer.alloc(size, 0x20);
  file.write("%PDF-1.4\n", 0, "latin1");
  return file;
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => {
    acc[s] = (acc[s] ?? 0) + 1;
    return acc;
  }, {});

describe.each(DRIVERS)("hostile checks of issue 10 on %s", (driver) => {
  let s: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    s = await startServer(driver, { AUTH_MAX_ATTEMPTS: String(MAX_ATTEMPTS) });
    admin = await s.signIn();
  });
  afterAll(() => s?.close());

  let seq = 0;
  const nextEmail = (kind: string) => `hostile-${kind}-${++seq}-${driver}@example.com`;
  async function newUser(modules = [1]) {
    const email = nextEmail("user");
    const res = await s.api<{ id: string }>("POST", "/api/users", {
      token: admin.accessToken,
      body: { first_name: "Hos", last_name: "Tile", email, password: PASSWORD, role: 3, modules },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.id, email };
  }
  const device = (n: number) => ({ deviceId: `hostile-${n}`, deviceName: `Hostile ${n}` });

  describe("the per-account attempt limit holds under parallel guesses", () => {
    it("on sign-in: only AUTH_MAX_ATTEMPTS guesses are checked, the rest answer 429", async () => {
      const u = await newUser();
      const answers = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          s.api("POST", "/api/auth/signin", {
            body: { email: u.email, password: `Wrong-guess-${i}`, deviceInfo: device(i) },
          }),
        ),
      );
      expect(tally(answers.map((a) => a.status))).toEqual({
        401: MAX_ATTEMPTS,
        429: PARALLEL - MAX_ATTEMPTS,
      });
      // Locked for the window, the right password included; one lockout in the log.
      const right = await s.api("POST", "/api/auth/signin", {
        body: { email: u.email, password: PASSWORD, deviceInfo: device(99) },
      });
      expect(right.status).toBe(429);
      expect(await securityEventDetails(s, "lockout", u.id)).toEqual([
        { action: "signin", scope: "account" },
      ]);
    });

    it("on a password change: only AUTH_MAX_ATTEMPTS current passwords are checked", async () => {
      const u = await newUser();
      const session = await s.signIn(u.email, PASSWORD, device(1));
      const answers = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          s.api("POST", "/api/users/me/password", {
            token: session.accessToken,
            body: { currentPassword: `Wrong-guess-${i}`, newPassword: "Vivid-Lantern-42" },
          }),
        ),
      );
      expect(tally(answers.map((a) => a.status))).toEqual({
        400: MAX_ATTEMPTS,
        429: PARALLEL - MAX_ATTEMPTS,
      });
      const right = await s.api("POST", "/api/users/me/password", {
        token: session.accessToken,
        body: { currentPassword: PASSWORD, newPassword: "Vivid-Lantern-42" },
      });
      expect(right.status).toBe(429);
    });

    it("still clears the count on the right password, so a user's own typos never add up", async () => {
      const u = await newUser();
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < MAX_ATTEMPTS - 1; i++) {
          const wrong = await s.api("POST", "/api/auth/signin", {
            body: { email: u.email, password: `Typo-${round}-${i}`, deviceInfo: device(1) },
          });
          expect(wrong.status).toBe(401);
        }
        const session = await s.signIn(u.email, PASSWORD, device(1));
        // A refused new password after the right current one is no guess either.
        const same = await s.api("POST", "/api/users/me/password", {
          token: session.accessToken,
          body: { currentPassword: PASSWORD, newPassword: PASSWORD },
        });
        expect(same.status).toBe(400);
      }
    });
  });

  describe("a set-password link follows the account's email", () => {
    const mailsTo = async (to: string) =>
      (
        await s.api<{ data: Array<{ to: string; text: string }> }>(
          "GET",
          `/api/outbox?q=${encodeURIComponent(to)}&sort=-created_at`,
          { token: admin.accessToken },
        )
      ).body.data.filter((m) => m.to === to);
    const tokenIn = (text: string) => /\/manage\/resetpassword\/([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;

    it("an invitation mailed to a mistyped address stops working once the admin corrects it", async () => {
      const typo = nextEmail("typo");
      const created = await s.api<{ id: string }>("POST", "/api/users", {
        token: admin.accessToken,
        body: { first_name: "In", last_name: "Vited", email: typo, role: 3, modules: [1], invite: true },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const [mail] = await mailsTo(typo);
      const stale = tokenIn(mail?.text ?? "");
      expect(stale).toBeTruthy();

      const right = nextEmail("right");
      const patched = await s.api("PATCH", `/api/users/${created.body.id}`, {
        token: admin.accessToken,
        body: { email: right },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ email: right, invite_pending: true });

      const info = await s.api("POST", "/api/auth/reset-password/info", { body: { id: stale } });
      expect(info.status).toBe(400);
      const claim = await s.api("POST", "/api/auth/reset-password", {
        body: { id: stale, password: "Taken-0ver-pass" },
      });
      expect(claim.status).toBe(400);
      const signIn = await s.api("POST", "/api/auth/signin", {
        body: { email: right, password: "Taken-0ver-pass", deviceInfo: device(1) },
      });
      expect(signIn.status).toBe(401);
      // The stored copy at the old address shows the link as dead.
      const [old] = await mailsTo(typo);
      expect(old.text).not.toContain(stale);

      // The admin sends the invitation again, to the right address; that link works.
      const resent = await s.api("POST", `/api/users/${created.body.id}/invite`, {
        token: admin.accessToken,
      });
      expect(resent.status).toBe(200);
      const [fresh] = await mailsTo(right);
      const set = await s.api("POST", "/api/auth/reset-password", {
        body: { id: tokenIn(fresh?.text ?? ""), password: "Chosen-by-owner-7" },
      });
      expect(set.status).toBe(200);
    });

    it("a reset link asked for by the old address stops working too; a name change keeps it", async () => {
      const u = await newUser();
      const forgot = await s.api("POST", "/api/auth/forgot-password", { body: { email: u.email } });
      expect(forgot.status).toBe(200);
      const [mail] = await mailsTo(u.email);
      const link = tokenIn(mail?.text ?? "");
      const renamed = await s.api("PATCH", `/api/users/${u.id}`, {
        token: admin.accessToken,
        body: { first_name: "Renamed", email: u.email.toUpperCase() },
      });
      expect(renamed.status).toBe(200);
      expect((await s.api("POST", "/api/auth/reset-password/info", { body: { id: link } })).status).toBe(200);
      const moved = await s.api("PATCH", `/api/users/${u.id}`, {
        token: admin.accessToken,
        body: { email: nextEmail("moved") },
      });
      expect(moved.status).toBe(200);
      expect((await s.api("POST", "/api/auth/reset-password/info", { body: { id: link } })).status).toBe(400);
    });
  });

  describe("a resumable upload is completed once", () => {
    it("parallel completes make one PDF; the others answer 404 and nothing 5xx", async () => {
      const u = await newUser([1]);
      const session = await s.signIn(u.email, PASSWORD, device(1));
      const chunks = 12;
      const size = CHUNK * (chunks - 1) + 10;
      const started = await s.api<{ id: string }>("POST", "/api/pdfs/uploads", {
        token: session.accessToken,
        body: { fileName: "twice.pdf", size, chunkSize: CHUNK, name: `Twice ${driver}` },
      });
      expect(started.status).toBe(201);
      const file = fakePdf(size);
      for (let i = 0; i < chunks; i++) {
        const res = await fetch(`${s.baseUrl}/api/pdfs/uploads/${started.body.id}/chunks/${i}`, {
          method: "PUT",
          headers: {
            authorization: `Bearer ${session.accessToken}`,
            "content-type": "application/octet-stream",
          },
          body: new Uint8Array(file.subarray(i * CHUNK, Math.min(size, (i + 1) * CHUNK))),
        });
        expect(res.status).toBe(200);
      }
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          s.api("POST", `/api/pdfs/uploads/${started.body.id}/complete`, { token: session.accessToken }),
        ),
      );
      expect(tally(answers.map((a) => a.status))).toEqual({ 201: 1, 404: 3 });
      const made = await sql<{
        n: number;
      }>`select count(*)::int as n from pdfs where created_by = ${u.id}`.execute(s.database.db);
      expect(made.rows[0].n).toBe(1);
    });
  });
});
