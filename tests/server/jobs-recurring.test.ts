/**
 * Recurring jobs of the durable queue (server/jobs: `recurring`): one row for the database,
 * run by one instance at a time, its payload carried from run to run, a failed run not the
 * end of it, and a restart neither doubling nor losing it. PGlite always, PostgreSQL when
 * global-setup found a server (there with two instances on two pools).
 */
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import type { DatabaseHandle } from "../../server/db";
import { createJobQueue, type JobQueue } from "../../server/jobs";
import { collectingLogger, type LogLine, until } from "./jobs-helpers";
import { twoInstanceHandles } from "./pg";

const pgUrl = inject("pgUrl");
const DRIVERS: ("pglite" | "postgres")[] = pgUrl ? ["pglite", "postgres"] : ["pglite"];

describe.each(DRIVERS)("recurring jobs on %s", (driver) => {
  let database: DatabaseHandle;
  let other: DatabaseHandle;
  let close: (() => Promise<void>) | undefined;
  let queues: JobQueue[] = [];
  const logs: LogLine[] = [];

  beforeAll(async () => {
    ({ database, other, close } = await twoInstanceHandles(driver, pgUrl));
  });

  afterEach(async () => {
    await Promise.all(queues.map((q) => q.stop()));
    queues = [];
  });

  afterAll(() => close?.());

  /** Whether the run on `failAt` failed already: once, whichever instance ran it. */
  const broke = { once: false };

  /** A queue running the recurring "tick": each run records its payload and answers n + 1. */
  function ticker(instanceId: string, db: DatabaseHandle, seen: { who: string; n: number }[], failAt = -1) {
    const q = createJobQueue({
      db: db.db,
      log: collectingLogger(logs),
      instanceId,
      pollMs: 20,
      leaseMs: 3000,
    });
    queues.push(q);
    q.recurring<{ n: number }>("tick", 50, { n: 0 }, async ({ payload }) => {
      seen.push({ who: instanceId, n: payload.n });
      if (payload.n === failAt && !broke.once) {
        broke.once = true;
        throw new Error("tick broke once");
      }
      return { n: payload.n + 1 };
    });
    return q;
  }

  const rows = () =>
    database.db.selectFrom("jobs").select(["state", "payload", "key"]).where("name", "=", "tick").execute();

  it("runs every period on one instance at a time, carrying its payload; a failed run is retried at its next time", async () => {
    const seen: { who: string; n: number }[] = [];
    await Promise.all([ticker("a", database, seen, 2).start(), ticker("b", other, seen, 2).start()]);
    await until(() => seen.length >= 8, "eight runs of the tick", 20_000);
    await Promise.all(queues.map((q) => q.stop()));
    queues = [];
    const ns = seen.map((s) => s.n);
    // The run that failed on 2 kept its payload: 2 comes twice, every other number once, in order.
    expect(ns.slice(0, 8)).toEqual([0, 1, 2, 2, 3, 4, 5, 6]);
    expect(logs.some((l) => l.level === "error" && l.msg?.includes("recurring job failed"))).toBe(true);
    const [row, ...more] = await rows();
    expect(more).toEqual([]);
    expect(row).toMatchObject({ state: "queued", key: "tick" });
    const last = ns[ns.length - 1];
    expect(row.payload).toEqual({ n: last + 1 });

    // A restart finds the row: no second one, and the count goes on.
    const after: { who: string; n: number }[] = [];
    await ticker("c", database, after).start();
    await until(() => after.length >= 2, "two runs after the restart", 20_000);
    expect(after[0].n).toBe(last + 1);
    expect(await rows()).toHaveLength(1);
  });

  it("is made again at start when its row was lost (failed by crashes)", async () => {
    await sql`update jobs set state = 'failed', key = null where name = 'tick'`.execute(database.db);
    const seen: { who: string; n: number }[] = [];
    await ticker("d", database, seen).start();
    await until(() => seen.length >= 1, "a run of the new row", 20_000);
    expect(seen[0].n).toBe(0);
    const live = (await rows()).filter((r) => r.state !== "failed");
    expect(live).toHaveLength(1);
  });
});
