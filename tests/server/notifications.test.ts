/**
 * The notification centre (issue 16) against the real app, on PGlite and PostgreSQL: `notify`
 * inside a caller's transaction (nothing left by a rollback), the live push to the user's
 * sockets (and across two instances), mail for the kinds a user asked for, the routes'
 * scoping to the caller's own notifications of the modules they hold, and bad input.
 */
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLiveClient } from "../../providers/live-client";
import { MODULE_IDS } from "../../resources/modules";
import type {
  NotificationList,
  NotificationMessage,
  NotificationPreferences,
  NotificationRecord,
} from "../../schemas/notifications";
import type { NotifyInput } from "../../server/notifications";
import { PUSH_JOB } from "../../server/notifications";
import { DRIVERS, startInstances, startServer, type TestServer } from "./harness";
import { openSocket, Received, TEST_ORIGIN } from "./received";

const EVENT_MS = 30_000;
const CRM = MODULE_IDS.crm;
const PDF = MODULE_IDS.pdf;
const AUTOMATION = MODULE_IDS.automation;

interface ErrorAnswer {
  message: string;
  details?: Array<{ field: string; message: string }>;
}

interface Person {
  id: string;
  email: string;
  token: string;
}

/** A user made by the admin through the API, signed in. */
async function createUser(s: TestServer, admin: string, name: string, modules: number[], role = 3) {
  const email = `${name}.notify@example.com`;
  const res = await s.api("POST", "/api/users", {
    token: admin,
    body: { first_name: name, last_name: "Notified", email, password: "Notify-passw0rd-9", role, modules },
  });
  expect(res.status).toBe(201);
  const signedIn = await s.signIn(email, "Notify-passw0rd-9", {
    deviceId: `dev-${name}`,
    deviceName: "Linux Chrome",
  });
  return { id: res.body.id as string, email, token: signedIn.accessToken } satisfies Person;
}

describe.each(DRIVERS)("notifications on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let ann: Person;
  let bob: Person;
  let pia: Person;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
    ann = await createUser(s, admin, "ann", [CRM]);
    bob = await createUser(s, admin, "bob", [CRM, AUTOMATION], 2);
    pia = await createUser(s, admin, "pia", [PDF]);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await s?.close();
  });

  const notify = (input: Partial<NotifyInput> & Pick<NotifyInput, "userIds">) =>
    s.ctx.notifications.notify(s.ctx.db, { kind: "crm.assigned", title: "A client is yours", ...input });
  const list = (who: Person, query = "") =>
    s.api<NotificationList & ErrorAnswer>("GET", `/api/notifications${query}`, { token: who.token });
  const call = <T = ErrorAnswer>(who: Person, method: string, path: string, body?: unknown) =>
    s.api<T>(method, path, { token: who.token, body });
  const rowsTitled = (title: string) =>
    s.ctx.db.selectFrom("notifications").selectAll().where("title", "=", title).execute();

  it("writes nothing when the cause's transaction rolls back: no row, no mail, no push job", async () => {
    await call(ann, "PUT", "/api/notifications/preferences", { mail: { "crm.assigned": true } });
    const jobsBefore = await s.ctx.db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("name", "=", PUSH_JOB)
      .executeTakeFirstOrThrow();
    const failed = s.ctx.db.transaction().execute(async (trx) => {
      const sent = await s.ctx.notifications.notify(trx, {
        userIds: [ann.id],
        kind: "crm.assigned",
        title: "Rolled back assignment",
      });
      // Inside the transaction it is there, with its mail…
      expect(sent).toMatchObject({ userIds: [ann.id], mailed: 1 });
      throw new Error("the assignment failed");
    });
    await expect(failed).rejects.toThrow("the assignment failed");
    // …and after the rollback, nothing of it is.
    expect(await rowsTitled("Rolled back assignment")).toEqual([]);
    const mails = await s.ctx.db
      .selectFrom("mail_outbox")
      .select("id")
      .where("subject", "=", "Rolled back assignment")
      .execute();
    expect(mails).toEqual([]);
    const jobsAfter = await s.ctx.db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("name", "=", PUSH_JOB)
      .executeTakeFirstOrThrow();
    expect(Number(jobsAfter.n)).toBe(Number(jobsBefore.n));
    expect((await list(ann)).body.data.map((n) => n.title)).not.toContain("Rolled back assignment");
    await call(ann, "PUT", "/api/notifications/preferences", { mail: { "crm.assigned": false } });
  });

  it("pushes a committed notification live to its user's sockets only", async () => {
    const annSocket = await openSocket(s.baseUrl, ann.token, sockets);
    const bobSocket = await openSocket(s.baseUrl, bob.token, sockets);
    const annGot = new Received<NotificationMessage>(annSocket, "notification", EVENT_MS);
    const bobGot = new Received<NotificationMessage>(bobSocket, "notification", EVENT_MS);

    await s.ctx.db.transaction().execute(async (trx) => {
      await s.ctx.notifications.notify(trx, {
        userIds: [ann.id],
        kind: "crm.reply",
        title: "Carla Client replied",
        body: "Thanks, Thursday works.",
        link: "/crm/clients/7",
        data: { clientId: "7" },
      });
    });
    const pushed = await annGot.until(
      (m) => m.type === "created" && m.notification.title === "Carla Client replied",
      "pushed reply",
    );
    expect(pushed).toMatchObject({
      type: "created",
      notification: {
        kind: "crm.reply",
        moduleID: CRM,
        body: "Thanks, Thursday works.",
        link: "/crm/clients/7",
        data: { clientId: "7" },
        read_at: null,
      },
    });
    // Bob's next message is his own: Ann's never reached his socket.
    await notify({ userIds: [bob.id], title: "For Bob" });
    const first = await bobGot.until(() => true, "Bob's notification");
    expect(first).toMatchObject({ type: "created", notification: { title: "For Bob" } });
    expect(bobGot.seen).toHaveLength(1);

    // Read in another tab: Ann's pages hear it.
    const id = pushed.type === "created" ? pushed.notification.id : "";
    expect((await call(ann, "POST", `/api/notifications/${id}/read`)).status).toBe(200);
    await annGot.until((m) => m.type === "read" && Array.isArray(m.ids) && m.ids.includes(id), "read event");
  });

  it("reaches the page's live client (the bell's watchNotifications) until it unsubscribes", async () => {
    const client = createLiveClient({
      createSocket: (auth) => {
        const socket = io(s.baseUrl, {
          path: "/socket.io",
          auth,
          autoConnect: false,
          forceNew: true,
          extraHeaders: { origin: TEST_ORIGIN },
        });
        sockets.push(socket);
        return socket;
      },
      getAccessToken: () => pia.token,
      refresh: () => Promise.reject(new Error("no refresh in this test")),
      onLogout: () => {},
    });
    const heard: NotificationMessage[] = [];
    const stop = client.watchNotifications((message) => heard.push(message));
    await expect.poll(() => client.socket?.connected, { timeout: EVENT_MS }).toBe(true);
    await s.ctx.notifications.notify(s.ctx.db, {
      userIds: [pia.id],
      kind: "automation.failed",
      title: "Not Pia's module",
    });
    await s.api("PATCH", `/api/users/${pia.id}`, { token: admin, body: { modules: [PDF, AUTOMATION] } });
    await s.ctx.notifications.notify(s.ctx.db, {
      userIds: [pia.id],
      kind: "automation.failed",
      title: "Flow failed",
    });
    await expect
      .poll(() => heard.map((m) => m.type === "created" && m.notification.title), { timeout: EVENT_MS })
      .toEqual(["Flow failed"]);
    stop();
    // Still pushed to the socket, but the listener is gone.
    const seen = new Received<NotificationMessage>(
      client.socket as unknown as Socket,
      "notification",
      EVENT_MS,
    );
    await s.ctx.notifications.notify(s.ctx.db, {
      userIds: [pia.id],
      kind: "automation.failed",
      title: "Unheard",
    });
    await seen.until((m) => m.type === "created" && m.notification.title === "Unheard", "the unheard push");
    expect(heard).toHaveLength(1);
    client.disconnect();
    await s.api("PATCH", `/api/users/${pia.id}`, { token: admin, body: { modules: [PDF] } });
  });

  it("queues a mail for the kinds a user asked for, and none for the others", async () => {
    const prefs = await call<NotificationPreferences & ErrorAnswer>(
      ann,
      "GET",
      "/api/notifications/preferences",
    );
    expect(prefs.status).toBe(200);
    // Ann holds the CRM only: its kinds, none by mail yet.
    expect(prefs.body.kinds.map((k) => [k.kind, k.mail])).toEqual([
      ["crm.assigned", false],
      ["crm.reply", false],
      ["crm.sequence_failed", false],
      ["task.reminder", false],
    ]);
    const put = await call<NotificationPreferences>(ann, "PUT", "/api/notifications/preferences", {
      mail: { "task.reminder": true },
    });
    expect(put.status).toBe(200);
    expect(put.body.kinds.find((k) => k.kind === "task.reminder")?.mail).toBe(true);

    const sent = await s.ctx.notifications.notify(s.ctx.db, {
      userIds: [ann.id, bob.id],
      kind: "task.reminder",
      title: "Call Carla back",
      body: "Due today at 15:00",
      link: "/crm/tasks/42",
      dedupeKey: "task.reminder:42:2025-01-01T15:00",
    });
    expect(sent).toMatchObject({ mailed: 1 });
    const mails = await s.ctx.db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("subject", "=", "Call Carla back")
      .execute();
    expect(mails.map((m) => m.to_address)).toEqual([ann.email]);
    expect(mails[0].text_body).toContain("Due today at 15:00");
    expect(mails[0].text_body).toContain("https://atelier.example.test/manage/crm/tasks/42");
    expect(mails[0].text_body).toContain("https://atelier.example.test/manage/account");

    // The same reminder again (a retried job): nobody is told twice, no second mail.
    const again = await s.ctx.notifications.notify(s.ctx.db, {
      userIds: [ann.id, bob.id],
      kind: "task.reminder",
      title: "Call Carla back",
      dedupeKey: "task.reminder:42:2025-01-01T15:00",
    });
    expect(again).toMatchObject({ ids: [], userIds: [], mailed: 0 });
    expect(await rowsTitled("Call Carla back")).toHaveLength(2);

    // Turned off again: the next one stays in the bell only.
    await call(ann, "PUT", "/api/notifications/preferences", { mail: { "task.reminder": false } });
    expect((await notify({ userIds: [ann.id], kind: "task.reminder", title: "Quiet reminder" })).mailed).toBe(
      0,
    );
  });

  it("lists newest first with the unread count, filters unread, and marks all read", async () => {
    for (const title of ["First of three", "Second of three", "Third of three"]) {
      await notify({ userIds: [ann.id], title });
    }
    const all = await list(ann, "?pageSize=2");
    expect(all.status).toBe(200);
    expect(all.body.data.map((n) => n.title)).toEqual(["Third of three", "Second of three"]);
    expect(all.body.total).toBeGreaterThanOrEqual(3);
    const count = await call<{ unread: number }>(ann, "GET", "/api/notifications/unread-count");
    expect(count.body.unread).toBe(all.body.unread);
    expect(count.body.unread).toBeGreaterThanOrEqual(3);

    const second = all.body.data[1];
    const read = await call<NotificationRecord>(ann, "POST", `/api/notifications/${second.id}/read`);
    expect(read.body.read_at).not.toBeNull();
    // Reading twice keeps the first time.
    const twice = await call<NotificationRecord>(ann, "POST", `/api/notifications/${second.id}/read`);
    expect(twice.body.read_at).toBe(read.body.read_at);
    const unread = await list(ann, "?unread=true&pageSize=100");
    expect(unread.body.data.every((n) => n.read_at === null)).toBe(true);
    expect(unread.body.data.map((n) => n.id)).not.toContain(second.id);
    expect(unread.body.total).toBe(count.body.unread - 1);

    const readAll = await call<{ read: number }>(ann, "POST", "/api/notifications/read-all");
    expect(readAll.body.read).toBe(count.body.unread - 1);
    expect((await call<{ unread: number }>(ann, "GET", "/api/notifications/unread-count")).body.unread).toBe(
      0,
    );

    const removed = await call(ann, "DELETE", `/api/notifications/${second.id}`);
    expect(removed.status).toBe(204);
    expect(await rowsTitled("Second of three")).toEqual([]);
  });

  it("answers 404 for another user's notification, and changes nothing", async () => {
    const { ids } = await notify({ userIds: [bob.id], title: "Bob's own" });
    const [id] = ids;
    for (const [method, path] of [
      ["POST", `/api/notifications/${id}/read`],
      ["DELETE", `/api/notifications/${id}`],
    ] as const) {
      const res = await call(ann, method, path);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("Notification not found");
    }
    expect((await list(ann, "?pageSize=100")).body.data.map((n) => n.id)).not.toContain(id);
    const [row] = await rowsTitled("Bob's own");
    expect(row.read_at).toBeNull();
    // An id that never was: the same answer.
    const missing = await call(ann, "POST", "/api/notifications/00000000-0000-4000-8000-000000000000/read");
    expect(missing.status).toBe(404);
  });

  it("tells only users granted the kind's module, and hides what a revoked grant covers", async () => {
    // Pia has the PDF library only: a CRM notification is not written for her.
    const sent = await notify({ userIds: [pia.id, ann.id], title: "CRM news" });
    expect(sent.userIds).toEqual([ann.id]);
    expect((await list(pia)).body).toMatchObject({ data: [], total: 0, unread: 0 });
    expect(
      (await call<NotificationPreferences>(pia, "GET", "/api/notifications/preferences")).body.kinds,
    ).toEqual([]);

    // Ann loses the CRM: what she had is hidden (not deleted), and back with the grant.
    const [id] = sent.ids;
    const revoke = await s.api("PATCH", `/api/users/${ann.id}`, { token: admin, body: { modules: [PDF] } });
    expect(revoke.status).toBe(200);
    expect((await list(ann)).body).toMatchObject({ total: 0, unread: 0 });
    expect((await call(ann, "POST", `/api/notifications/${id}/read`)).status).toBe(404);
    expect((await call(ann, "GET", "/api/notifications/unread-count")).body).toEqual({ unread: 0 });
    const refused = await call(ann, "PUT", "/api/notifications/preferences", { mail: { "crm.reply": true } });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { field: "mail.crm.reply", message: "Replies come from a module you do not have" },
    ]);
    const restore = await s.api("PATCH", `/api/users/${ann.id}`, { token: admin, body: { modules: [CRM] } });
    expect(restore.status).toBe(200);
    expect((await list(ann, "?pageSize=100")).body.data.map((n) => n.id)).toContain(id);
  });

  it("tells a module's administrators with notifyModuleUsers", async () => {
    const sent = await s.ctx.notifications.notifyModuleUsers(s.ctx.db, {
      kind: "automation.failed",
      adminsOnly: true,
      title: "Workflow Welcome failed",
      link: "/automation",
    });
    // Bob is an admin with the automation module; the first admin holds every module.
    const admins = await s.ctx.db
      .selectFrom("users as u")
      .innerJoin("user_modules as um", "um.user_id", "u.id")
      .where("um.module_id", "=", AUTOMATION)
      .where("u.role", "=", 2)
      .select("u.id")
      .execute();
    expect(sent.userIds.sort()).toEqual(admins.map((a) => a.id).sort());
    expect(sent.userIds).toContain(bob.id);
    expect(sent.userIds).not.toContain(ann.id);
  });

  it("refuses bad input with 400 and per-field messages", async () => {
    const badId = await call(ann, "POST", "/api/notifications/not-an-id/read");
    expect(badId.status).toBe(400);
    expect(badId.body.details?.[0].field).toBe("id");
    expect((await call(ann, "DELETE", "/api/notifications/42")).status).toBe(400);

    for (const query of ["?unread=maybe", "?pageSize=1000", "?page=0", "?sort=title", "?colour=red"]) {
      const res = await list(ann, query);
      expect(res.status, query).toBe(400);
      expect(res.body.details?.length, query).toBeGreaterThan(0);
    }

    const cases: Array<[unknown, string]> = [
      [{}, "mail"],
      [{ mail: { "crm.reply": "yes" } }, "mail.crm.reply"],
      [{ mail: { "party.invite": true } }, "mail.party.invite"],
      [{ mail: {}, extra: 1 }, ""],
    ];
    for (const [body, field] of cases) {
      const res = await call(ann, "PUT", "/api/notifications/preferences", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details?.length, JSON.stringify(body)).toBeGreaterThan(0);
      if (field)
        expect(
          res.body.details?.map((d) => d.field),
          JSON.stringify(body),
        ).toContain(field);
    }
    // Nothing was changed by any of them.
    const prefs = await call<NotificationPreferences>(ann, "GET", "/api/notifications/preferences");
    expect(prefs.body.kinds.every((k) => !k.mail)).toBe(true);
  });

  it("answers 401 without a token", async () => {
    expect((await s.api("GET", "/api/notifications")).status).toBe(401);
    expect((await s.api("POST", "/api/notifications/read-all")).status).toBe(401);
  });

  it("refuses a notify that is the caller's mistake before touching the database", async () => {
    await expect(notify({ userIds: [ann.id], kind: "party.invite" as never })).rejects.toThrow(/Unknown/);
    await expect(notify({ userIds: [ann.id], moduleID: PDF })).rejects.toThrow(/belongs to module/);
    await expect(notify({ userIds: [ann.id], link: "//evil.example/x" })).rejects.toThrow(/admin app/);
    await expect(notify({ userIds: ["ann"] })).rejects.toThrow(/user id/);
    // Text from outside is cut to fit, never refused.
    const long = await notify({
      userIds: [ann.id],
      title: `Long ${"x".repeat(500)}`,
      body: "y".repeat(5000),
    });
    const [row] = await s.ctx.db
      .selectFrom("notifications")
      .selectAll()
      .where("id", "=", long.ids[0])
      .execute();
    expect(row.title).toHaveLength(200);
    expect(row.title.endsWith("...")).toBe(true);
    expect(row.body).toHaveLength(2000);
  });
});

describe.runIf(DRIVERS.includes("postgres"))("notifications across two instances", () => {
  let a: TestServer;
  let b: TestServer;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    [a, b] = await startInstances(2);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await b?.close();
    await a?.close();
  });

  it("reaches the user's page on the other instance once the cause commits", async () => {
    const admin = await a.signIn();
    const socket = await openSocket(b.baseUrl, admin.accessToken, sockets);
    const got = new Received<NotificationMessage>(socket, "notification", EVENT_MS);
    await a.ctx.db.transaction().execute(async (trx) => {
      await a.ctx.notifications.notify(trx, {
        userIds: [admin.user.userID],
        kind: "crm.assigned",
        title: "Assigned on instance A",
      });
    });
    const message = await got.until(
      (m) => m.type === "created" && m.notification.title === "Assigned on instance A",
      "notification from the other instance",
    );
    expect(message).toMatchObject({ notification: { kind: "crm.assigned", read_at: null } });
  });
});
