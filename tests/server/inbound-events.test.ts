/**
 * Every inbound event once (issue 26), the mechanism all four sources use
 * (server/http/inbound-events.ts): a replay after the first finished answers its answer and runs
 * nothing; replays at once run one handler, on two connections pools as on two instances; a
 * failed handler lets the event run again; the record lasts a week and is swept after. Then two
 * server instances on one PostgreSQL database: one automation run per Idempotency-Key, whichever
 * instance each delivery reaches. PGlite always, PostgreSQL when global-setup found a server.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { DatabaseHandle } from "../../server/db";
import { createIdempotencyStore } from "../../server/http/idempotency-store";
import {
  createInboundEvents,
  INBOUND_TTL_SECONDS,
  type InboundAnswer,
  jsonAnswer,
} from "../../server/http/inbound-events";
import { waitFor } from "./child-server";
import { startInstances, type TestServer } from "./harness";
import { twoInstanceHandles } from "./pg";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

const pgUrl = inject("pgUrl");
const DRIVERS: ("pglite" | "postgres")[] = pgUrl ? ["pglite", "postgres"] : ["pglite"];

describe.each(DRIVERS)("inbound events on %s", (driver) => {
  let database: DatabaseHandle;
  /** A second pool on the same database (PostgreSQL), as a second instance has. */
  let other: DatabaseHandle;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ database, other, close } = await twoInstanceHandles(driver, pgUrl));
  });

  afterAll(() => close?.());

  /** A handler that counts its runs and answers which run it was. */
  function counted(ms = 0) {
    const runs = { n: 0 };
    const handle = async (): Promise<InboundAnswer> => {
      const n = ++runs.n;
      if (ms) await new Promise((r) => setTimeout(r, ms));
      return jsonAnswer(200, { run: n });
    };
    return { runs, handle };
  }

  it("answers a replay after the first finished as the first did, and runs nothing", async () => {
    const events = createInboundEvents(database.db);
    const { runs, handle } = counted();
    const first = await events.once("store:one", "hash-1", handle);
    expect(first).toEqual({ answer: jsonAnswer(200, { run: 1 }), replayed: false });
    for (let i = 0; i < 5; i++) {
      const again = await createInboundEvents(other.db).once("store:one", "hash-1", handle);
      expect(again).toEqual({ answer: first.answer, replayed: true });
    }
    expect(runs.n).toBe(1);
    // Another source, or another key, is another event.
    expect((await events.once("store:two", "hash-1", handle)).replayed).toBe(false);
    expect((await events.once("store:one", "hash-2", handle)).replayed).toBe(false);
    expect(runs.n).toBe(3);
  });

  it("runs one of many deliveries at once; the others answer its answer", async () => {
    const { runs, handle } = counted(150);
    const pools = [database, other];
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createInboundEvents(pools[i % 2].db).once("sms:inbound", "SM-burst", handle),
      ),
    );
    expect(runs.n).toBe(1);
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    expect(new Set(outcomes.map((o) => o.answer.body))).toEqual(new Set([JSON.stringify({ run: 1 })]));
  });

  it("says 'still being processed' to a replay that outwaits the first, without running it", async () => {
    // The first delivery holds until the test lets it go: no race with the clock.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let runs = 0;
    const first = createInboundEvents(database.db).once("mail", "<slow@example.com>", async () => {
      runs++;
      await gate;
      return jsonAnswer(250, { stored: 1 });
    });
    await waitFor(
      "the first delivery's claim",
      () => createInboundEvents(database.db).seen("mail", "<slow@example.com>"),
      10_000,
      10,
    );
    const impatient = await createInboundEvents(other.db, { waitMs: 50 }).once(
      "mail",
      "<slow@example.com>",
      async () => {
        runs++;
        return jsonAnswer(250, { stored: 2 });
      },
    );
    expect(impatient.replayed).toBe(true);
    expect(impatient.answer.status).toBe(409);
    release();
    expect(await first).toEqual({ answer: jsonAnswer(250, { stored: 1 }), replayed: false });
    expect(runs).toBe(1);
  });

  it("forgets an event whose handler failed, so the provider's retry runs it", async () => {
    const events = createInboundEvents(database.db);
    await expect(
      events.once("automation:x", "key-fails", async () => {
        throw new Error("the database went away");
      }),
    ).rejects.toThrow("the database went away");
    expect(await events.seen("automation:x", "key-fails")).toBe(false);
    const { runs, handle } = counted();
    expect((await events.once("automation:x", "key-fails", handle)).replayed).toBe(false);
    expect(runs.n).toBe(1);
  });

  it("keeps a long id (a Message-ID) by its hash, for a week, and sweeps it after", async () => {
    const long = `<${"m".repeat(600)}@example.com>`;
    const events = createInboundEvents(database.db);
    const { runs, handle } = counted();
    await events.once("mail", long, handle);
    expect((await events.once("mail", long, handle)).replayed).toBe(true);
    expect(runs.n).toBe(1);
    const row = await database.db
      .selectFrom("idempotency_keys")
      .select(["key", sql<number>`extract(epoch from expires_at - now())::int`.as("left")])
      .where("scope", "=", "inbound")
      .where("route", "=", "mail")
      .where("key", "like", "sha256:%")
      .executeTakeFirstOrThrow();
    expect(row.key).toMatch(/^sha256:[0-9a-f]{64}$/);
    // At least seven days (less the seconds this test took).
    expect(Number(row.left)).toBeGreaterThan(INBOUND_TTL_SECONDS - 120);
    expect(Number(row.left)).toBeLessThanOrEqual(INBOUND_TTL_SECONDS);

    // Past its week: swept, and the same id is a new event again.
    await database.db
      .updateTable("idempotency_keys")
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where("key", "=", row.key)
      .execute();
    expect(await createIdempotencyStore(database.db).sweep()).toBeGreaterThanOrEqual(1);
    expect(await events.seen("mail", long)).toBe(false);
    expect((await events.once("mail", long, handle)).replayed).toBe(false);
    expect(runs.n).toBe(2);
  });
});

describe.runIf(DRIVERS.includes("postgres"))("inbound events on two instances of one database", () => {
  let a: TestServer;
  let b: TestServer;
  let admin: string;
  beforeAll(async () => {
    [a, b] = await startInstances(2);
    admin = (await a.signIn()).accessToken;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("starts one run per Idempotency-Key, whichever instance each delivery reaches, then or later", async () => {
    const call = (method: string, path: string, body?: unknown) =>
      a.api<Any>(method, path, { token: admin, body });
    const id = (await call("POST", "/api/automations", { name: "Two instances" })).body.id as string;
    await call("PUT", `/api/automations/${id}/draft`, {
      definition: {
        trigger: { kind: "webhook" },
        steps: [{ id: "s1", kind: "action", type: "add_tag", inputs: { tag: "x" } }],
      },
    });
    expect((await call("POST", `/api/automations/${id}/publish`)).status).toBe(200);
    const { webhookPath } = (await call("GET", `/api/automations/${id}/draft`)).body;
    const post = (s: TestServer) =>
      s.api<Any>("POST", webhookPath, { body: { n: 1 }, headers: { "idempotency-key": "across-1" } });

    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => post(i % 2 ? b : a)));
    expect(burst.map((r) => r.status)).toEqual(Array(8).fill(202));
    const runIds = new Set(burst.map((r) => r.body.runId));
    expect(runIds.size).toBe(1);
    const runs = async () => (await call("GET", `/api/automations/${id}/runs`)).body.total as number;
    await waitFor("the run listed", async () => (await runs()) >= 1, 20_000);
    // Later, through either instance: the same run, none new.
    for (const s of [b, a]) {
      const late = await post(s);
      expect(late.body.runId).toBe([...runIds][0]);
      expect(late.headers.get("idempotent-replayed")).toBe("true");
    }
    expect(await runs()).toBe(1);
    // One sweep job for the pair of them, not one each.
    const sweeps = await a.database.db
      .selectFrom("jobs")
      .select("id")
      .where("name", "=", "idempotency.sweep")
      .execute();
    expect(sweeps).toHaveLength(1);
  });
});
