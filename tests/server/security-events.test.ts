/**
 * The security event log, driven through the real HTTP routes on PGlite and PostgreSQL: every
 * wired event type is recorded with the client's IP (X-Forwarded-For, TRUST_PROXY on) and user
 * agent; the list is admins only, newest first, filtered and paged by the list contract; and a
 * log that cannot be written never fails the request it belongs to.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SecurityEventRecord } from "../../schemas/security-events";
import { ADMIN, DRIVERS, startServer, type TestServer } from "./harness";

const UA = "SecurityLogTest/1.0 (X11; Linux x86_64)";
const MAX_ATTEMPTS = 3;
const MAX_ATTEMPTS_IP = 6;

interface Page {
  data: SecurityEventRecord[];
  total: number;
  /** Error answers. */
  details?: Array<{ field: string; message: string }>;
}

describe.each(DRIVERS)("security event log on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let adminId: string;

  beforeAll(async () => {
    s = await startServer(driver, {
      TRUST_PROXY: "true",
      AUTH_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      AUTH_MAX_ATTEMPTS_IP: String(MAX_ATTEMPTS_IP),
    });
    const signedIn = await s.signIn();
    admin = signedIn.accessToken;
    adminId = signedIn.user.userID;
  });
  afterAll(() => s?.close());

  /** A request from `ip` with the test's user agent. */
  const from = (ip: string, token?: string) => ({
    token,
    headers: { "x-forwarded-for": ip, "user-agent": UA },
  });

  const list = (query: Record<string, unknown> = {}, token = admin) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query))
      params.set(k, typeof v === "string" || typeof v === "number" ? String(v) : JSON.stringify(v));
    return s.api<Page>("GET", `/api/security-events?${params}`, { token });
  };

  /** The events of one type for one email, newest first. */
  async function eventsOf(type: string, email: string) {
    const res = await list({
      pageSize: 50,
      filters: [
        { field: "type", operator: "eq", value: type },
        { field: "email", operator: "eq", value: email },
      ],
    });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  let userCount = 0;
  async function createUser(modules = [1], role = 3) {
    const email = `user${++userCount}-${driver}@example.com`;
    const res = await s.api<{ id: string }>("POST", "/api/users", {
      token: admin,
      body: { first_name: "Sec", last_name: "Log", email, password: "Sturdy-passw0rd!", role, modules },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.id, email, password: "Sturdy-passw0rd!" };
  }

  const signIn = (email: string, password: string, ip: string, deviceId = "device-sec") =>
    s.api<{ accessToken: string }>("POST", "/api/auth/signin", {
      ...from(ip),
      body: { email, password, deviceInfo: { deviceId, deviceName: "Linux Chrome" } },
    });

  it("records sign-ins and failed sign-ins with IP, user agent and reason", async () => {
    const user = await createUser();
    expect((await signIn(user.email, user.password, "203.0.113.10")).status).toBe(200);
    expect((await signIn(user.email, "Wrong-passw0rd", "203.0.113.11")).status).toBe(401);
    const ghost = `ghost-${driver}@example.com`;
    expect((await signIn(ghost, "Whatever-passw0rd", "203.0.113.12")).status).toBe(401);

    const [signin] = await eventsOf("signin", user.email);
    expect(signin).toMatchObject({
      type: "signin",
      user_id: user.id,
      user_email: user.email,
      email: user.email,
      ip: "203.0.113.10",
      user_agent: UA,
      details: { deviceId: "device-sec", deviceName: "Linux Chrome" },
    });
    expect(Date.now() - new Date(signin.created_at).getTime()).toBeLessThan(10 * 60_000);
    const [failed] = await eventsOf("signin_failed", user.email);
    expect(failed).toMatchObject({
      user_id: user.id,
      ip: "203.0.113.11",
      user_agent: UA,
      details: { reason: "wrong_password" },
    });
    const [unknown] = await eventsOf("signin_failed", ghost);
    expect(unknown).toMatchObject({
      user_id: null,
      email: ghost,
      ip: "203.0.113.12",
      details: { reason: "unknown_account" },
    });
  });

  it("records a disabled account's sign-in as failed, and disable/enable with the acting admin", async () => {
    const user = await createUser();
    const disable = await s.api("PATCH", `/api/users/${user.id}`, {
      ...from("198.51.100.20", admin),
      body: { active: false },
    });
    expect(disable.status).toBe(200);
    expect((await signIn(user.email, user.password, "198.51.100.21")).status).toBe(406);
    const enable = await s.api("PATCH", `/api/users/${user.id}`, {
      ...from("198.51.100.22", admin),
      body: { active: true },
    });
    expect(enable.status).toBe(200);

    expect(await eventsOf("user_disabled", user.email)).toEqual([
      expect.objectContaining({
        user_id: user.id,
        actor_id: adminId,
        actor_email: ADMIN.email,
        ip: "198.51.100.20",
        user_agent: UA,
      }),
    ]);
    expect(await eventsOf("user_enabled", user.email)).toEqual([
      expect.objectContaining({ actor_id: adminId, ip: "198.51.100.22", user_agent: UA }),
    ]);
    const [failed] = await eventsOf("signin_failed", user.email);
    expect(failed).toMatchObject({ ip: "198.51.100.21", details: { reason: "disabled" } });
  });

  it("records one lockout when an account reaches its failed attempts, none for the refusals after", async () => {
    const user = await createUser();
    for (let i = 0; i < MAX_ATTEMPTS; i++)
      expect((await signIn(user.email, "Wrong-passw0rd", "192.0.2.30")).status).toBe(401);
    expect((await signIn(user.email, user.password, "192.0.2.31")).status).toBe(429);
    expect((await signIn(user.email, user.password, "192.0.2.31")).status).toBe(429);
    const lockouts = await eventsOf("lockout", user.email);
    expect(lockouts).toEqual([
      expect.objectContaining({
        user_id: user.id,
        ip: "192.0.2.30",
        user_agent: UA,
        details: { action: "signin", scope: "account" },
      }),
    ]);
    expect(await eventsOf("signin_failed", user.email)).toHaveLength(MAX_ATTEMPTS);
  });

  it("records one lockout when an IP is refused by the rate limiter", async () => {
    const ip = "192.0.2.40";
    const statuses: number[] = [];
    for (let i = 0; i < MAX_ATTEMPTS_IP + 2; i++) {
      const res = await s.api("POST", "/api/auth/forgot-password", {
        ...from(ip),
        body: { email: `flood${i}-${driver}@example.com` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(MAX_ATTEMPTS_IP).fill(200), 429, 429]);
    const res = await list({
      filters: [
        { field: "type", operator: "eq", value: "lockout" },
        { field: "ip", operator: "eq", value: ip },
      ],
    });
    expect(res.body.total).toBe(1);
    expect(res.body.data[0]).toMatchObject({
      user_agent: UA,
      details: { action: "password_reset_request", scope: "ip" },
    });
  });

  it("records reset requests (known and unknown accounts) and the reset itself", async () => {
    const user = await createUser();
    await s.api("POST", "/api/auth/forgot-password", {
      ...from("203.0.113.50"),
      body: { email: user.email },
    });
    const ghost = `nobody-${driver}@example.com`;
    await s.api("POST", "/api/auth/forgot-password", { ...from("203.0.113.51"), body: { email: ghost } });
    const outbox = await s.api<{ data: Array<{ to: string; text: string }> }>(
      "GET",
      `/api/outbox?q=${encodeURIComponent(user.email)}`,
      { token: admin },
    );
    const id = outbox.body.data[0]?.text.match(/\/manage\/resetpassword\/(\S+)/)?.[1];
    expect(id).toBeTruthy();
    const reset = await s.api("POST", "/api/auth/reset-password", {
      ...from("203.0.113.52"),
      body: { id, password: "Brand-new-passw0rd!" },
    });
    expect(reset.status).toBe(200);

    expect(await eventsOf("password_reset_requested", user.email)).toEqual([
      expect.objectContaining({
        user_id: user.id,
        ip: "203.0.113.50",
        user_agent: UA,
        details: { accountFound: true, linkSent: true },
      }),
    ]);
    expect(await eventsOf("password_reset_requested", ghost)).toEqual([
      expect.objectContaining({ user_id: null, details: { accountFound: false, linkSent: false } }),
    ]);
    expect(await eventsOf("password_reset", user.email)).toEqual([
      expect.objectContaining({
        user_id: user.id,
        ip: "203.0.113.52",
        user_agent: UA,
        details: { kind: "reset" },
      }),
    ]);
  });

  it("records grant, role and password changes made by an admin, with what changed", async () => {
    const user = await createUser([1, 2]);
    const patch = await s.api("PATCH", `/api/users/${user.id}`, {
      ...from("198.51.100.60", admin),
      body: { modules: [2, 8, 9], role: 2, password: "Admin-set-passw0rd!" },
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    const by = { user_id: user.id, actor_id: adminId, ip: "198.51.100.60", user_agent: UA };
    expect(await eventsOf("grant_changed", user.email)).toEqual([
      expect.objectContaining({ ...by, details: { added: [8, 9], removed: [1], modules: [2, 8, 9] } }),
    ]);
    expect(await eventsOf("role_changed", user.email)).toEqual([
      expect.objectContaining({ ...by, details: { from: 3, to: 2 } }),
    ]);
    expect(await eventsOf("password_changed", user.email)).toEqual([
      expect.objectContaining({ ...by, details: { by: "admin" } }),
    ]);

    // Saving the same grants and role again changes nothing, so nothing is recorded.
    await s.api("PATCH", `/api/users/${user.id}`, { token: admin, body: { modules: [9, 8, 2], role: 2 } });
    expect(await eventsOf("grant_changed", user.email)).toHaveLength(1);
    expect(await eventsOf("role_changed", user.email)).toHaveLength(1);
  });

  it("records device revocations by the user and by an admin", async () => {
    const user = await createUser();
    const mine = await signIn(user.email, user.password, "203.0.113.70", "laptop");
    await signIn(user.email, user.password, "203.0.113.70", "phone");
    const self = await s.api(
      "DELETE",
      "/api/users/me/devices/phone",
      from("203.0.113.71", mine.body.accessToken),
    );
    expect(self.status).toBe(204);
    const byAdmin = await s.api(
      "DELETE",
      `/api/users/${user.id}/devices/laptop`,
      from("198.51.100.72", admin),
    );
    expect(byAdmin.status).toBe(204);

    const events = await eventsOf("device_revoked", user.email);
    expect(events).toEqual([
      expect.objectContaining({
        actor_id: adminId,
        ip: "198.51.100.72",
        user_agent: UA,
        details: { deviceId: "laptop", deviceName: "Linux Chrome", sessionsClosed: 1 },
      }),
      expect.objectContaining({
        user_id: user.id,
        actor_id: user.id,
        ip: "203.0.113.71",
        details: { deviceId: "phone", deviceName: "Linux Chrome", sessionsClosed: 1 },
      }),
    ]);
  });

  it("is for admins only: 401 without a token, 403 for a user even with the Users module", async () => {
    expect((await s.api("GET", "/api/security-events")).status).toBe(401);
    for (const modules of [[1], [10]]) {
      const user = await createUser(modules);
      const token = (await signIn(user.email, user.password, "203.0.113.80")).body.accessToken;
      const res = await list({}, token);
      expect(res.status).toBe(403);
      expect(res.body).not.toHaveProperty("data");
    }
  });

  it("lists newest first, pages with a stable total, and filters by user, IP and date range", async () => {
    const all = await list({ pageSize: 200 });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.data.length);
    const times = all.body.data.map((e) => new Date(e.created_at).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const page1 = await list({ page: 1, pageSize: 3 });
    const page2 = await list({ page: 2, pageSize: 3 });
    expect(page1.body.total).toBe(all.body.total);
    expect(page1.body.data.map((e) => e.id)).toEqual(all.body.data.slice(0, 3).map((e) => e.id));
    expect(page2.body.data.map((e) => e.id)).toEqual(all.body.data.slice(3, 6).map((e) => e.id));

    const ascending = await list({ sort: "created_at", pageSize: 1 });
    expect(ascending.body.data[0].id).toBe(all.body.data.at(-1)?.id);

    const mineById = await list({ filters: [{ field: "user_id", operator: "eq", value: adminId }] });
    expect(mineById.body.total).toBeGreaterThan(0);
    expect(mineById.body.data.every((e) => e.user_id === adminId)).toBe(true);

    const byIp = await list({ filters: [{ field: "ip", operator: "startswith", value: "203.0.113." }] });
    expect(byIp.body.total).toBe(all.body.data.filter((e) => e.ip?.startsWith("203.0.113.")).length);

    const byEmail = await list({ filters: [{ field: "email", operator: "contains", value: "ghost-" }] });
    expect(byEmail.body.data.map((e) => e.type)).toEqual(["signin_failed"]);

    const inTypes = await list({
      pageSize: 200,
      filters: [{ field: "type", operator: "in", value: ["role_changed", "grant_changed"] }],
    });
    expect(new Set(inTypes.body.data.map((e) => e.type))).toEqual(new Set(["role_changed", "grant_changed"]));

    // A date range: everything up to the middle event, then nothing in the future.
    const middle = all.body.data[Math.floor(all.body.data.length / 2)];
    const upTo = await list({
      pageSize: 200,
      filters: [
        { field: "created_at", operator: "between", value: ["2000-01-01T00:00:00Z", middle.created_at] },
      ],
    });
    expect(upTo.body.data.every((e) => e.created_at <= middle.created_at)).toBe(true);
    expect(upTo.body.data.map((e) => e.id)).toContain(middle.id);
    const future = await list({
      filters: [
        { field: "created_at", operator: "gte", value: new Date(Date.now() + 86_400_000).toISOString() },
      ],
    });
    expect(future.body).toEqual({ data: [], total: 0 });

    const search = await list({ q: "ghost-" });
    expect(search.body.total).toBe(byEmail.body.total);
  });

  it("refuses bad list input with a 400 in words", async () => {
    const badField = await list({ filters: [{ field: "user_agent", operator: "eq", value: "x" }] });
    expect(badField.status).toBe(400);
    expect(badField.body.details).toEqual([{ field: "filters", message: "Cannot filter by 'user_agent'" }]);
    const badDate = await list({
      filters: [{ field: "created_at", operator: "gte", value: "yesterday-ish" }],
    });
    expect(badDate.status).toBe(400);
    expect(badDate.body.details).toEqual([
      { field: "filters.created_at", message: "Created at must be a date" },
    ]);
    const badUser = await list({ filters: [{ field: "user_id", operator: "eq", value: "42" }] });
    expect(badUser.status).toBe(400);
    const badSort = await list({ sort: "-user_agent" });
    expect(badSort.status).toBe(400);
    expect(badSort.body.details).toEqual([{ field: "sort", message: "Cannot sort by 'user_agent'" }]);
    expect((await list({ pageSize: 0 })).status).toBe(400);
    expect((await s.api("GET", "/api/security-events?filters=%7Bnot-json", { token: admin })).status).toBe(
      400,
    );
  });

  it("is listed in the OpenAPI document", async () => {
    const doc = await s.api<{ paths: Record<string, Record<string, { summary?: string }>> }>(
      "GET",
      "/api/docs/json",
    );
    expect(doc.body.paths["/api/security-events"]?.get?.summary).toMatch(/security event log/i);
  });

  it("never fails the request when the log cannot be written", async () => {
    const user = await createUser([1, 2]);
    await sql`alter table security_events rename to security_events_away`.execute(s.database.db);
    try {
      expect((await signIn(user.email, user.password, "203.0.113.90")).status).toBe(200);
      expect((await signIn(user.email, "Wrong-passw0rd", "203.0.113.90")).status).toBe(401);
      // Recorded inside the user update's transaction: the change still commits.
      const patch = await s.api<{ modules: number[]; role: number }>("PATCH", `/api/users/${user.id}`, {
        token: admin,
        body: { modules: [2], role: 2 },
      });
      expect(patch.status).toBe(200);
      expect(patch.body).toMatchObject({ modules: [2], role: 2 });
    } finally {
      await sql`alter table security_events_away rename to security_events`.execute(s.database.db);
    }
    const fresh = await s.api<{ modules: number[] }>("GET", `/api/users/${user.id}`, { token: admin });
    expect(fresh.body.modules).toEqual([2]);
    expect(await eventsOf("signin", user.email)).toEqual([]);
  });
});
