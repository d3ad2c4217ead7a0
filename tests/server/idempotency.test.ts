/**
 * Idempotent creates (issue 10): the Idempotency-Key header on JSON create routes, against
 * the real server and database. A throwaway resource (`gizmos`) has a rule that can fail on
 * demand (5xx); a test-only route creates through the same service after waiting on a gate
 * the test opens, so "still running" is reached without sleeping.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceDefinition } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import { auditProperties, type EntitySchema } from "../../schemas/contract";
import { moduleAccess, principalOf } from "../../server/auth/access";
import { bodyHash } from "../../server/http/idempotency";
import { createIdempotencyStore } from "../../server/http/idempotency-store";
import { createTableSql } from "../../server/resources/ddl";
import { RULES } from "../../server/resources/index";
import type { Row } from "../../server/resources/records";
import { DRIVERS, startServer, type TestServer } from "./harness";

const GIZMO_MODULE = 9;

const gizmoSchema = {
  $id: "gizmo",
  title: "Gizmo",
  type: "object",
  additionalProperties: false,
  "x-table": "test_gizmos",
  "x-label": "title",
  "x-defaultSort": "title",
  "x-list": ["title", "weight"],
  "x-searchable": ["title"],
  "x-filterable": ["title"],
  required: ["title"],
  properties: {
    ...auditProperties,
    title: { type: "string", title: "Title", minLength: 2, maxLength: 50 },
    weight: { type: "integer", title: "Weight", minimum: 0 },
  },
} as const satisfies EntitySchema;

const gizmos: ResourceDefinition = {
  name: "gizmos",
  schema: gizmoSchema,
  moduleID: GIZMO_MODULE,
  base: "api",
  label: "Gizmos",
  singular: "Gizmo",
  icon: "ToolOutlined",
};

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Rejects when `promise` has not settled in `ms` (a bound, not a pause). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What the tests steer: a rule that fails with a 500 on demand, and the slow route's gate. */
const control = {
  failing: false,
  gate: null as null | { entered: Deferred; release: Deferred },
};

describe.each(DRIVERS)("idempotent creates on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let adminId: string;
  let n = 0;
  /** A fresh key per test, so tests sharing the server never meet. */
  const newKey = () => `test-key-${driver}-${++n}-${Date.now()}`;
  const gizmoCount = async (title: string) =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from test_gizmos where title = ${title}`.execute(
          s.database.db,
        )
      ).rows[0].n,
    );
  const keyRow = (key: string) =>
    s.database.db.selectFrom("idempotency_keys").selectAll().where("key", "=", key).executeTakeFirst();
  const create = (body: unknown, key?: string, token = admin, path = "/api/gizmos") =>
    s.api<Record<string, unknown>>("POST", path, {
      token,
      body,
      headers: key === undefined ? {} : { "idempotency-key": key },
    });

  beforeAll(async () => {
    s = await startServer(
      driver,
      // Public routes are scoped by client address: X-Forwarded-For lets one test play two.
      { TRUST_PROXY: "true" },
      {
        resources: [...RESOURCES, gizmos],
        setupSql: createTableSql(gizmoSchema, () => "test_gizmos"),
        rules: {
          ...RULES,
          gizmos: {
            async beforeWrite() {
              if (control.failing) throw new Error("the test made this create fail");
            },
          },
        },
        beforeListen({ app, services }) {
          app.post<{ Body: Row }>(
            "/api/slow-gizmos",
            {
              config: { access: moduleAccess(GIZMO_MODULE), idempotent: true },
              schema: { hide: true, body: { type: "object" } },
            },
            async (request, reply) => {
              const gate = control.gate;
              if (gate) {
                gate.entered.resolve();
                await gate.release.promise;
              }
              const service = services.get("gizmos");
              if (!service) throw new Error("gizmos not registered");
              return reply.status(201).send(await service.create(request.body, principalOf(request).userId));
            },
          );
        },
      },
    );
    const signedIn = await s.signIn();
    admin = signedIn.accessToken;
    adminId = signedIn.user.userID;
  });
  afterAll(() => s?.close());

  it("replays the first answer for the same key and body, and creates one record", async () => {
    const key = newKey();
    const first = await create({ title: "Replayed", weight: 3 }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // The same body with its keys in another order is the same request.
    const again = await create({ weight: 3, title: "Replayed" }, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await gizmoCount("Replayed")).toBe(1);

    const row = await keyRow(key);
    expect(row).toMatchObject({
      scope: `user:${adminId}`,
      route: "POST /api/gizmos",
      state: "done",
      status: 201,
    });
    expect(row?.request_hash).toBe(bodyHash({ title: "Replayed", weight: 3 }));
    // Kept for at least 24 hours.
    expect(new Date(row?.expires_at as Date).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
  });

  it("changes nothing without the header", async () => {
    expect((await create({ title: "Twice" })).status).toBe(201);
    expect((await create({ title: "Twice" })).status).toBe(201);
    expect(await gizmoCount("Twice")).toBe(2);
  });

  it("replays a 400 validation answer too", async () => {
    const key = newKey();
    const bad = await create({ title: "x", weight: -1 }, key);
    expect(bad.status).toBe(400);
    expect(bad.body.details).toBeDefined();
    const again = await create({ title: "x", weight: -1 }, key);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(bad.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await keyRow(key)).toMatchObject({ state: "done", status: 400 });
  });

  it("answers 422 for the same key with another body, and creates nothing more", async () => {
    const key = newKey();
    expect((await create({ title: "First body" }, key)).status).toBe(201);
    const other = await create({ title: "Second body" }, key);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ statusCode: 422, error: "Unprocessable Entity" });
    expect(other.body.message).toMatch(/already used with a different request body/);
    expect(await gizmoCount("Second body")).toBe(0);
    expect((await create({ title: "First body" }, key)).status).toBe(201);
    expect(await gizmoCount("First body")).toBe(1);
  });

  it("answers 409 to a duplicate while the first is still running, then replays its answer", async () => {
    const key = newKey();
    const gate = { entered: deferred(), release: deferred() };
    control.gate = gate;
    try {
      const first = create({ title: "Slow one" }, key, admin, "/api/slow-gizmos");
      await within(gate.entered.promise, 30_000, "the first request to reach its handler");
      const duplicate = await create({ title: "Slow one" }, key, admin, "/api/slow-gizmos");
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.message).toMatch(/still being processed/);
      expect(duplicate.headers.get("retry-after")).toBe("1");
      gate.release.resolve();
      const answered = await first;
      expect(answered.status).toBe(201);
      const replayed = await create({ title: "Slow one" }, key, admin, "/api/slow-gizmos");
      expect(replayed.status).toBe(201);
      expect(replayed.body).toEqual(answered.body);
      expect(await gizmoCount("Slow one")).toBe(1);
    } finally {
      gate.release.resolve();
      control.gate = null;
    }
  });

  it("lets a key be claimed again once a crashed request's lease has run out", async () => {
    const key = newKey();
    const body = { title: "After a crash" };
    const crashed = {
      scope: `user:${adminId}`,
      route: "POST /api/gizmos",
      key,
      request_hash: bodyHash(body),
      state: "running" as const,
      claim_id: "00000000-0000-4000-8000-000000000001",
      created_at: new Date(),
    };
    // Still leased: the request may be alive.
    await s.database.db
      .insertInto("idempotency_keys")
      .values({
        ...crashed,
        locked_until: sql<Date>`now() + interval '1 minute'`,
        expires_at: sql<Date>`now() + interval '1 day'`,
      })
      .execute();
    expect((await create(body, key)).status).toBe(409);
    // The lease ran out: its process is presumed dead.
    await s.database.db
      .updateTable("idempotency_keys")
      .set({ locked_until: sql<Date>`now() - interval '1 second'` })
      .where("key", "=", key)
      .execute();
    expect((await create(body, key)).status).toBe(201);
    expect(await gizmoCount("After a crash")).toBe(1);
    expect(await keyRow(key)).toMatchObject({ state: "done", status: 201 });
  });

  it("keeps users apart: the same key from two users creates two records", async () => {
    const email = `idem-${driver}-${Date.now()}@example.com`;
    const password = "Gizmo-Keeper-4821!";
    const userKey = newKey();
    const userBody = {
      first_name: "Ida",
      last_name: "Key",
      email,
      password,
      role: 2,
      modules: [GIZMO_MODULE],
    };
    const user = await s.api<{ id: string }>("POST", "/api/users", {
      token: admin,
      body: userBody,
      headers: { "idempotency-key": userKey },
    });
    expect(user.status).toBe(201);
    // The users module's create route honours the key too.
    const userAgain = await s.api("POST", "/api/users", {
      token: admin,
      body: userBody,
      headers: { "idempotency-key": userKey },
    });
    expect(userAgain.status).toBe(201);
    expect(userAgain.body).toEqual(user.body);
    const users = await s.database.db.selectFrom("users").select("id").where("email", "=", email).execute();
    expect(users).toHaveLength(1);

    const other = (await s.signIn(email, password)).accessToken;
    const key = newKey();
    const mine = await create({ title: "Shared key" }, key);
    const theirs = await create({ title: "Shared key" }, key, other);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(await gizmoCount("Shared key")).toBe(2);
  });

  it("scopes a public route's keys by client address", async () => {
    const pdf = await s.database.db
      .insertInto("pdfs")
      .values({ name: `Idempotent ${driver}`, pdfstatus: true, pdflist_status: "ready", page_count: 1 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const key = newKey();
    const event = { pdfId: pdf.id, type: "view", visitorId: "visitor-idem-1", page: 1 };
    const send = (ip: string) =>
      s.api("POST", "/public/events", {
        body: event,
        headers: { "idempotency-key": key, "x-forwarded-for": ip },
      });
    const events = async () =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from pdf_events where pdf_id = ${pdf.id}`.execute(
            s.database.db,
          )
        ).rows[0].n,
      );
    const first = await send("203.0.113.7");
    expect(first.status).toBe(204);
    const again = await send("203.0.113.7");
    expect(again.status).toBe(204);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await events()).toBe(1);
    const elsewhere = await send("203.0.113.8");
    expect(elsewhere.status).toBe(204);
    expect(elsewhere.headers.get("idempotent-replayed")).toBeNull();
    expect(await events()).toBe(2);
    expect(await keyRow(key)).toBeDefined();
    const scopes = await s.database.db
      .selectFrom("idempotency_keys")
      .select("scope")
      .where("key", "=", key)
      .orderBy("scope")
      .execute();
    expect(scopes.map((r) => r.scope)).toEqual(["ip:203.0.113.7", "ip:203.0.113.8"]);
  });

  it("lets an expired key be used again, and deletes expired keys", async () => {
    const key = newKey();
    const first = await create({ title: "Expires" }, key);
    expect(first.status).toBe(201);
    await s.database.db
      .updateTable("idempotency_keys")
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where("key", "=", key)
      .execute();
    const reused = await create({ title: "Expires" }, key);
    expect(reused.status).toBe(201);
    expect(reused.body.id).not.toBe(first.body.id);
    expect(reused.headers.get("idempotent-replayed")).toBeNull();
    expect(await gizmoCount("Expires")).toBe(2);

    await s.database.db
      .updateTable("idempotency_keys")
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where("key", "=", key)
      .execute();
    const live = newKey();
    expect((await create({ title: "Still kept" }, live)).status).toBe(201);
    expect(await createIdempotencyStore(s.database.db).sweep()).toBeGreaterThanOrEqual(1);
    expect(await keyRow(key)).toBeUndefined();
    expect(await keyRow(live)).toBeDefined();
  });

  it("does not store a 5xx: the key is released and a retry runs", async () => {
    const key = newKey();
    control.failing = true;
    try {
      const failed = await create({ title: "Second try" }, key);
      expect(failed.status).toBe(500);
      expect(await keyRow(key)).toBeUndefined();
    } finally {
      control.failing = false;
    }
    const retried = await create({ title: "Second try" }, key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(await gizmoCount("Second try")).toBe(1);
  });

  it("refuses a malformed key with a 400 and creates nothing", async () => {
    for (const key of ["", "x".repeat(256), "caf\u00e9", "tab\there"]) {
      const res = await create({ title: "Bad key" }, key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body).toMatchObject({
        message: "Invalid Idempotency-Key header",
        details: [
          {
            field: "Idempotency-Key",
            message: "Idempotency key must be 1 to 255 printable ASCII characters",
          },
        ],
      });
    }
    expect((await create({ title: "Good key" }, "x".repeat(255))).status).toBe(201);
    expect(await gizmoCount("Bad key")).toBe(0);
  });

  it("honours the key on the DAM's folder create", async () => {
    const key = newKey();
    const body = { name: `Idempotent folder ${driver}` };
    const first = await create(body, key, admin, "/dam/folders");
    expect(first.status).toBe(201);
    const again = await create(body, key, admin, "/dam/folders");
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const rows = await s.database.db
      .selectFrom("dam_folders")
      .select("id")
      .where("name", "=", body.name)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("documents the header on idempotent routes in the OpenAPI document", async () => {
    const doc = await s.api<{
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    }>("GET", "/api/docs/json");
    const params = doc.body.paths["/api/gizmos"]?.post?.parameters ?? [];
    expect(params).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "idempotency-key", in: "header" })]),
    );
  });
});
