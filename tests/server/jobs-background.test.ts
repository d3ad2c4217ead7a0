/**
 * Background jobs (RegisterOptions.background: webhook deliveries) yield while the process is
 * busy with requests: one at a time, started by a poll and never by the wake-ups of the work
 * keeping it busy; at their name's concurrency again once it is not.
 */
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { createJobQueue, type JobQueue } from "../../server/jobs";
import { collectingLogger, until } from "./jobs-helpers";
import { type DriverDatabase, openDriverDatabase } from "./pg";

const pgUrl = inject("pgUrl");
// As harness.ts's DRIVERS, without importing the app.
const DRIVERS: ("pglite" | "postgres")[] = pgUrl ? ["pglite", "postgres"] : ["pglite"];

describe.each(DRIVERS)("background jobs on %s", (driver) => {
  let opened: DriverDatabase;
  let q: JobQueue | undefined;

  beforeAll(async () => {
    opened = await openDriverDatabase(driver, pgUrl);
  });
  afterEach(async () => {
    await q?.stop();
    await sql`delete from jobs`.execute(opened.database.db);
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("wait while the process is busy, one per poll, then run at their concurrency", async () => {
    let busy = true;
    // No poll within the test: `wake()` below is the poll.
    q = createJobQueue({
      db: opened.database.db,
      log: collectingLogger([]),
      pollMs: 600_000,
      busy: () => busy,
    });
    const started: string[] = [];
    let running = 0;
    let peak = 0;
    const release: Array<() => void> = [];
    q.register<{ n: number }>(
      "bulk",
      async ({ payload }) => {
        started.push(`bulk ${payload.n}`);
        peak = Math.max(peak, ++running);
        await new Promise<void>((resolve) => release.push(resolve));
        running--;
      },
      { concurrency: 3, background: true },
    );
    q.register("request", async () => {
      started.push("request");
    });
    const state = async (id: string) => (await q?.get(id))?.state;

    /** A request's job, done: a look of the queue came and went since. */
    const aRequest = async () => {
      const id = await q?.enqueue("request", {});
      await until(async () => (await state(String(id))) === "done", "a request's job");
    };
    const bulk: string[] = [];
    for (let n = 1; n <= 4; n++) bulk.push(await q.enqueue("bulk", { n }));
    // The start looks as a poll does: it starts one.
    await q.start();
    await until(() => release.length === 1, "a poll's background job");
    // The requests' own work runs at once; no other background job starts, nor on a poll.
    await aRequest();
    q.wake();
    await aRequest();
    expect(release).toHaveLength(1);
    // Its slot freeing starts none while busy either.
    release.shift()?.();
    await until(async () => {
      const states = await Promise.all(bulk.map(state));
      return states.filter((s) => s === "done").length === 1;
    }, "the first background job to end");
    await aRequest();
    expect(started.filter((s) => s.startsWith("bulk"))).toHaveLength(1);
    expect(started).toContain("request");

    // Not busy: the next poll takes the rest at the name's concurrency.
    busy = false;
    q.wake();
    await until(() => release.length === 3, "the other three at once");
    for (const done of release.splice(0)) done();
    for (const id of bulk) await until(async () => (await state(id)) === "done", `job ${id}`);
    expect(peak).toBe(3);
  });
});
