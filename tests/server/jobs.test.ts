/**
 * The durable job queue (server/jobs) on real databases: PGlite always, PostgreSQL when
 * global-setup found a server. No app is booted: queues run on a database opened here, and
 * a worker that dies is a real child process killed with SIGKILL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../server/db";
import {
  createJobQueue,
  type JobQueue,
  type JobQueueOptions,
  type JobState,
  MAX_RETRY_DELAY_MS,
  retryDelayMs,
} from "../../server/jobs";
import { waitFor } from "./child-server";
import { collectingLogger, type LogLine, until } from "./jobs-helpers";
import { type DriverDatabase, openDriverDatabase, type TestDatabase } from "./pg";

const ROOT = path.resolve(__dirname, "../..");
const pgUrl = inject("pgUrl");
// As harness.ts's DRIVERS, without importing the app.
const DRIVERS: ("pglite" | "postgres")[] = pgUrl ? ["pglite", "postgres"] : ["pglite"];

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Another instance's worker as a real process (so it can die by SIGKILL): a queue named
 * "doomed" on JOBS_DATABASE_URL (or PGlite in JOBS_PGLITE_DIR) with lease JOBS_LEASE_MS,
 * running `registrations` (code that calls `queue.register(...)`; `handle` is its database).
 */
function spawnWorker(work: string, env: Record<string, string>, registrations: string) {
  const script = path.join(work, `worker-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(
    script,
    `import { openDatabase } from ${JSON.stringify(path.join(ROOT, "server/db/index.ts"))};
import { createJobQueue } from ${JSON.stringify(path.join(ROOT, "server/jobs/index.ts"))};
const handle = await openDatabase({ databaseUrl: process.env.JOBS_DATABASE_URL || null, pgliteDir: process.env.JOBS_PGLITE_DIR });
// Warnings and errors go to stderr: a test that times out waiting on this worker shows them.
const log = { info() {}, warn: (o, m) => console.error(m, o), error: (o, m) => console.error(m, o) };
const queue = createJobQueue({ db: handle.db, log, instanceId: "doomed", pollMs: 20, leaseMs: Number(process.env.JOBS_LEASE_MS) });
${registrations}
await queue.start();
`,
  );
  const proc = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  proc.stdout?.on("data", (d) => {
    output += d;
  });
  proc.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise((resolve) => proc.on("exit", resolve));
  return { proc, output: () => output, exited };
}

describe("retryDelayMs", () => {
  it("doubles from 2 s and stops at an hour", () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([2000, 4000, 8000, 16000]);
    expect(retryDelayMs(30)).toBe(MAX_RETRY_DELAY_MS);
    expect(MAX_RETRY_DELAY_MS).toBe(3_600_000);
  });
});

describe.each(DRIVERS)("job queue on %s", (driver) => {
  let opened: DriverDatabase;
  let database: DatabaseHandle;
  let pgDatabase: TestDatabase | null = null;
  const extraHandles: DatabaseHandle[] = [];
  let queues: JobQueue[] = [];
  let logs: LogLine[] = [];

  /** Another connection to the same database: a second instance (PostgreSQL only). */
  async function secondHandle(): Promise<DatabaseHandle> {
    if (!pgDatabase) return database; // PGlite: one process, one database
    const handle = await openDatabase({ databaseUrl: pgDatabase.url });
    extraHandles.push(handle);
    return handle;
  }

  function queue(options: Partial<JobQueueOptions> = {}): JobQueue {
    const q = createJobQueue({
      db: database.db,
      log: collectingLogger(logs),
      pollMs: 20,
      leaseMs: 3000,
      stopTimeoutMs: 500,
      ...options,
    });
    queues.push(q);
    return q;
  }

  async function stateOf(q: JobQueue, id: string, state: JobState) {
    return until(async () => {
      const job = await q.get(id);
      return job?.state === state ? job : undefined;
    }, `job ${id} to be ${state}`);
  }

  beforeAll(async () => {
    opened = await openDriverDatabase(driver, pgUrl);
    ({ database, pg: pgDatabase } = opened);
  });

  afterAll(async () => {
    for (const handle of extraHandles) await handle.close();
    await opened?.close();
  });

  beforeEach(async () => {
    logs = [];
    await sql`delete from jobs`.execute(database.db);
  });

  afterEach(async () => {
    await Promise.all(queues.map((q) => q.stop()));
    queues = [];
  });

  it("runs a job once and marks it done", async () => {
    const q = queue();
    const seen: { id: string; name: string; payload: unknown; attempt: number }[] = [];
    q.register<{ n: number; tags: string[] }>("once", async ({ id, name, payload, attempt }) => {
      seen.push({ id, name, payload, attempt });
    });
    await q.start();
    const id = await q.enqueue("once", { n: 1, tags: ["a", "b"] });
    const job = await stateOf(q, id, "done");
    await sleep(100); // several polls later, still once
    expect(seen).toEqual([{ id, name: "once", payload: { n: 1, tags: ["a", "b"] }, attempt: 1 }]);
    expect(job).toMatchObject({ attempts: 1, lockedBy: null, lockedUntil: null, lastError: null });
    expect(job.finishedAt).toBeInstanceOf(Date);
    expect((await q.get(id))?.state).toBe("done");
  });

  it("a job's enqueue looks for its name at once; a nameless wake looks for every name", async () => {
    // No poll within the test: only wake-ups take jobs.
    const q = queue({ pollMs: 600_000 });
    q.register("woken.a", async () => {});
    q.register("woken.b", async () => {});
    await q.start();
    // Past the start's own look at every name.
    await stateOf(q, await q.enqueue("woken.a", {}), "done");
    // A job of b written behind the queue's back (no wake-up of its own).
    const [{ id: quiet }] = (
      await sql<{
        id: string;
      }>`insert into jobs (name, payload) values ('woken.b', '{}') returning id`.execute(database.db)
    ).rows;
    const woken = await q.enqueue("woken.a", {});
    await stateOf(q, woken, "done");
    // a's look asked for a only: b's job is still waiting.
    expect((await q.get(quiet))?.state).toBe("queued");
    q.wake();
    await stateOf(q, quiet, "done");
  });

  it("keeps any JSON payload as it was given", async () => {
    const q = queue();
    const payloads = ["text", 42, null, [1, [2]], { nested: { quote: 'a"b' } }];
    const ids = await Promise.all(payloads.map((p) => q.enqueue("kept", p)));
    const stored = await Promise.all(ids.map(async (id) => (await q.get(id))?.payload));
    expect(stored).toEqual(payloads);
  });

  it("retries with growing delays, then fails with the last error", async () => {
    const q = queue({ retryDelayMs: (attempt) => 100 * attempt });
    const times: number[] = [];
    q.register(
      "flaky",
      async ({ attempt }) => {
        times.push(Date.now());
        throw new Error(`boom on attempt ${attempt}`);
      },
      { maxAttempts: 3 },
    );
    await q.start();
    const id = await q.enqueue("flaky", {});
    const job = await stateOf(q, id, "failed");
    expect(times).toHaveLength(3);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(90);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(190);
    expect(job.attempts).toBe(3);
    expect(job.maxAttempts).toBe(3);
    expect(job.lastError).toContain("boom on attempt 3");
    expect(job.finishedAt).toBeInstanceOf(Date);
    expect(logs.filter((l) => l.level === "warn")).toHaveLength(2);
    expect(logs.filter((l) => l.level === "error").map((l) => l.msg)).toEqual([
      "job failed on its last attempt",
    ]);
  });

  it("ends done when a retry succeeds; enqueue's maxAttempts wins over register's", async () => {
    const q = queue({ retryDelayMs: () => 10 });
    q.register(
      "second-time",
      async ({ attempt }) => {
        if (attempt === 1) throw new Error("first try fails");
      },
      { maxAttempts: 1 },
    );
    await q.start();
    const id = await q.enqueue("second-time", {}, { maxAttempts: 2 });
    const job = await stateOf(q, id, "done");
    expect(job.attempts).toBe(2);
    expect(job.lastError).toContain("first try fails");
  });

  it("dedupes a singleton key while its job is queued", async () => {
    const q = queue();
    const first = await q.enqueue("single", { v: 1 }, { key: "k" });
    expect(await q.enqueue("single", { v: 2 }, { key: "k" })).toBe(first);
    expect(await q.enqueue("single", { v: 3 }, { key: "other" })).not.toBe(first);
    expect(await q.enqueue("another-name", { v: 4 }, { key: "k" })).not.toBe(first);
    const a = await q.enqueue("single", { v: 5 });
    expect(await q.enqueue("single", { v: 5 })).not.toBe(a);
    expect((await q.get(first))?.payload).toEqual({ v: 1 });

    const ran: unknown[] = [];
    q.register("single", async ({ payload }) => void ran.push(payload), { concurrency: 4 });
    await q.start();
    await stateOf(q, first, "done");
    // Once done, the key is free again.
    const next = await q.enqueue("single", { v: 6 }, { key: "k" });
    expect(next).not.toBe(first);
    await stateOf(q, next, "done");
    expect(ran).toHaveLength(5);
  });

  it("queues a newer keyed job beside a running one, which then is not retried", async () => {
    const q = queue({ retryDelayMs: () => 10 });
    let failFirst!: () => void;
    const firstMayEnd = new Promise<void>((resolve) => {
      failFirst = resolve;
    });
    const ran: { v: number; attempt: number }[] = [];
    q.register<{ v: number }>(
      "render",
      async ({ payload, attempt }) => {
        ran.push({ v: payload.v, attempt });
        if (payload.v === 1) {
          await firstMayEnd;
          throw new Error("the old version failed");
        }
      },
      { concurrency: 2 },
    );
    await q.start();
    const first = await q.enqueue("render", { v: 1 }, { key: "pdf-1" });
    await stateOf(q, first, "running");
    const second = await q.enqueue("render", { v: 2 }, { key: "pdf-1" });
    expect(second).not.toBe(first);
    expect(await q.get(first)).toMatchObject({ state: "running", key: null, maxAttempts: 1 });
    await stateOf(q, second, "done");
    failFirst();
    const old = await stateOf(q, first, "failed");
    expect(old.lastError).toContain("the old version failed");
    expect(ran).toEqual([
      { v: 1, attempt: 1 },
      { v: 2, attempt: 1 },
    ]);
  });

  it("never runs more than a name's concurrency at once", async () => {
    const q = queue();
    const now = { wide: 0, narrow: 0 };
    const peak = { wide: 0, narrow: 0 };
    const handler = (name: "wide" | "narrow") => async () => {
      now[name]++;
      peak[name] = Math.max(peak[name], now[name]);
      await sleep(30);
      now[name]--;
    };
    q.register("wide", handler("wide"), { concurrency: 3 });
    q.register("narrow", handler("narrow"), { concurrency: 1 });
    const ids = [
      ...(await Promise.all(Array.from({ length: 9 }, (_, i) => q.enqueue("wide", { i })))),
      ...(await Promise.all(Array.from({ length: 3 }, (_, i) => q.enqueue("narrow", { i })))),
    ];
    await q.start();
    for (const id of ids) await stateOf(q, id, "done");
    expect(peak).toEqual({ wide: 3, narrow: 1 });
  });

  it("waits for runAt", async () => {
    const q = queue();
    let ranAt = 0;
    q.register("later", async () => {
      ranAt = Date.now();
    });
    await q.start();
    const runAt = new Date(Date.now() + 500);
    const id = await q.enqueue("later", {}, { runAt });
    await sleep(250);
    expect(ranAt).toBe(0);
    expect((await q.get(id))?.state).toBe("queued");
    await stateOf(q, id, "done");
    expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime() - 5);
  });

  it("two instances on one database run 50 jobs each, every job exactly once", async () => {
    const other = await secondHandle();
    const a = queue({ instanceId: "instance-a" });
    const b = queue({ instanceId: "instance-b", db: other.db });
    const runs = new Map<string, number>();
    const byInstance = { a: 0, b: 0 };
    const handler =
      (who: "a" | "b") =>
      async ({ id }: { id: string }) => {
        runs.set(id, (runs.get(id) ?? 0) + 1);
        byInstance[who]++;
        await sleep(2);
      };
    a.register("shared", handler("a"), { concurrency: 4 });
    b.register("shared", handler("b"), { concurrency: 4 });
    await Promise.all([a.start(), b.start()]);
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      ids.push(await a.enqueue("shared", { i }), await b.enqueue("shared", { i: i + 50 }));
    }
    await until(async () => {
      const { count } = await database.db
        .selectFrom("jobs")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .where("state", "=", "done")
        .executeTakeFirstOrThrow();
      return Number(count) === 100;
    }, "100 done jobs");
    expect(runs.size).toBe(100);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(ids).size).toBe(100);
    expect(byInstance.a).toBeGreaterThan(0);
    expect(byInstance.b).toBeGreaterThan(0);
    expect(byInstance.a + byInstance.b).toBe(100);
  });

  it("takes over a job whose worker was killed (SIGKILL)", async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), "atelier-jobs-"));
    let child: ChildProcess | null = null;
    try {
      // On PGlite the dead worker's process held the data folder; the next process opens it.
      const pgliteDir = path.join(work, "data");
      mkdirSync(path.join(pgliteDir, "pglite"), { recursive: true });
      let db = database.db;
      if (driver === "pglite") {
        const before = await openDatabase({ databaseUrl: null, pgliteDir });
        await createJobQueue({ db: before.db, log: collectingLogger(logs) }).enqueue("crash", { n: 1 });
        await before.close();
      } else {
        await queue().enqueue("crash", { n: 1 });
      }
      // PGlite: a lease far longer than the test (its timeout is 2 min), so only reclaimOnStart
      // can explain a retake. PostgreSQL: a lease that runs out soon after the kill, yet long
      // enough that the living child's heartbeat (a third of it) keeps it on a busy machine.
      const worker = spawnWorker(
        work,
        {
          JOBS_DATABASE_URL: pgDatabase?.url ?? "",
          JOBS_PGLITE_DIR: pgliteDir,
          JOBS_LEASE_MS: String(driver === "pglite" ? 600_000 : 2000),
        },
        `queue.register("crash", async ({ id }) => {
  process.stdout.write("taken " + id + "\\n");
  await new Promise(() => {});
});`,
      );
      child = worker.proc;
      // A cap for a stuck child, not a timing check: tsx compiling the server's modules in a
      // fresh process takes a few seconds quiet and far longer on a loaded machine.
      const taken = await until(
        () => /taken (\S+)/.exec(worker.output())?.[1],
        `the child to take the job: ${worker.output()}`,
        90_000,
      );
      child.kill("SIGKILL");
      await worker.exited;

      let other: DatabaseHandle | null = null;
      if (driver === "pglite") {
        other = await openDatabase({ databaseUrl: null, pgliteDir });
        db = other.db;
      }
      try {
        const q = queue({ db, instanceId: "survivor", reclaimOnStart: driver === "pglite" });
        const held = await q.get(taken);
        expect(held).toMatchObject({ state: "running", lockedBy: "doomed" });
        // Usually 1. A child stalled past its lease by a loaded machine may have taken its own
        // job again before it died: the survivor's run is the next attempt all the same.
        const before = held?.attempts ?? 0;
        expect(before).toBeGreaterThanOrEqual(1);
        const ran: number[] = [];
        q.register("crash", async ({ attempt }) => void ran.push(attempt));
        await q.start();
        const job = await stateOf(q, taken, "done");
        expect(ran).toEqual([before + 1]);
        expect(job.attempts).toBe(before + 1);
        if (driver === "pglite") {
          // Taken back at start (the 10-minute lease had not run out), and said so in the log.
          expect(logs.some((l) => l.msg?.startsWith("job queue: taking back jobs"))).toBe(true);
        }
        await q.stop();
      } finally {
        await other?.close();
      }
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      rmSync(work, { recursive: true, force: true });
    }
  });

  // Issue 11: 200 jobs over two instances, one of them killed mid-way (PostgreSQL: PGlite
  // is one process). Every run is written to a table by the handler, so a job run twice shows.
  it.runIf(driver === "postgres")(
    "finishes 200 jobs over two instances when one is killed mid-way: only its held jobs run twice",
    async () => {
      const JOBS = 200;
      const HELD = 4;
      await sql`create table if not exists job_runs (job_id uuid not null, attempt int not null, instance text not null)`.execute(
        database.db,
      );
      await sql`delete from job_runs`.execute(database.db);
      const seed = queue();
      const ids = await Promise.all(Array.from({ length: JOBS }, (_, n) => seed.enqueue("batch", { n })));
      const work = mkdtempSync(path.join(os.tmpdir(), "atelier-jobs-"));
      // The doomed instance finishes 10 jobs, then holds every job it takes (its 4 slots) forever.
      const worker = spawnWorker(
        work,
        { JOBS_DATABASE_URL: pgDatabase?.url ?? "", JOBS_LEASE_MS: "1500" },
        `let finished = 0;
queue.register("batch", async ({ id, attempt }) => {
  await handle.db.insertInto("job_runs").values({ job_id: id, attempt, instance: "doomed" }).execute();
  if (finished++ < 10) return;
  process.stdout.write("holding " + id + "\\n");
  await new Promise(() => {});
}, { concurrency: ${HELD} });`,
      );
      try {
        const holding = () => [...worker.output().matchAll(/holding (\S+)/g)].map((m) => m[1]);
        const held = await until(
          () => (holding().length === HELD ? holding() : undefined),
          `the doomed worker to hold ${HELD} jobs`,
          30_000,
        ).catch((error: Error) => {
          throw new Error(`${error.message}: ${worker.output()}`);
        });
        // The survivor joins, and the doomed instance dies while the survivor is working.
        const other = await secondHandle();
        const survivor = queue({ db: other.db, instanceId: "survivor" });
        let survivorRuns = 0;
        survivor.register(
          "batch",
          async ({ id, attempt }) => {
            await sql`insert into job_runs (job_id, attempt, instance) values (${id}, ${attempt}, 'survivor')`.execute(
              other.db,
            );
            survivorRuns++;
            await sleep(2);
          },
          { concurrency: 4 },
        );
        await survivor.start();
        await until(() => survivorRuns > 0, "the survivor's first run");
        worker.proc.kill("SIGKILL");
        await worker.exited;

        await until(
          async () => {
            const { count } = await database.db
              .selectFrom("jobs")
              .select((eb) => eb.fn.countAll<string>().as("count"))
              .where("name", "=", "batch")
              .where("state", "=", "done")
              .executeTakeFirstOrThrow();
            return Number(count) === JOBS;
          },
          `${JOBS} done jobs`,
          60_000,
        );
        const { rows } = await sql<{ job_id: string; runs: string[] }>`
          select job_id, array_agg(instance || ':' || attempt order by attempt) as runs
          from job_runs group by job_id`.execute(database.db);
        const runsOf = new Map(rows.map((r) => [r.job_id, r.runs]));
        expect(runsOf.size).toBe(JOBS);
        for (const id of ids) {
          // A held job ran on the doomed instance, then once more on the survivor after its lease.
          const expected = held.includes(id) ? ["doomed:1", "survivor:2"] : [expect.stringMatching(/:1$/)];
          expect(runsOf.get(id), id).toEqual(expected);
        }
        expect([...runsOf.values()].filter((r) => r[0].startsWith("doomed")).length).toBe(10 + HELD);
      } finally {
        if (worker.proc.exitCode === null && worker.proc.signalCode === null) worker.proc.kill("SIGKILL");
        rmSync(work, { recursive: true, force: true });
      }
    },
    90_000,
  );

  it("takes a job again once its lease expired, and fails it when that was its last attempt", async () => {
    const q = queue();
    const insertRunning = async (attempts: number, maxAttempts: number) => {
      const row = await database.db
        .insertInto("jobs")
        .values({
          name: "orphan",
          payload: sql<string>`'{}'::jsonb`,
          state: "running",
          attempts,
          max_attempts: maxAttempts,
          locked_by: "ghost",
          locked_until: sql<Date>`now() - interval '1 second'`,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const retried = await insertRunning(1, 3);
    const exhausted = await insertRunning(3, 3);
    const ran: string[] = [];
    q.register("orphan", async ({ id }) => void ran.push(id));
    await q.start();
    expect(await stateOf(q, retried, "done")).toMatchObject({ attempts: 2 });
    const dead = await stateOf(q, exhausted, "failed");
    expect(dead.lastError).toMatch(/lease expired/);
    expect(ran).toEqual([retried]);
  });

  it("stop() waits for a short run, and aborts and hands back a long one", async () => {
    // The grace must comfortably cover the short run (50 ms plus its commit) on a loaded
    // machine (3 s was not always enough under CI-like load); the long run never ends by
    // itself, so stop() always waits the whole grace.
    const a = queue({ instanceId: "stopping", stopTimeoutMs: 10_000 });
    let aborted = false;
    // Both handlers running, not just both rows taken: a row is 'running' as soon as the take
    // commits, and a stop() that comes before the take's answer hands the jobs straight back.
    const started = new Set<string>();
    a.register("long", async ({ signal }) => {
      started.add("long");
      await new Promise<void>((_, reject) =>
        signal.addEventListener("abort", () => {
          aborted = true;
          reject(signal.reason);
        }),
      );
    });
    a.register("short", async () => {
      started.add("short");
      await sleep(50);
    });
    await a.start();
    const long = await a.enqueue("long", {});
    const short = await a.enqueue("short", {});
    await waitFor("both handlers running", async () => started.size === 2, 30_000, 20);
    await a.stop();
    expect(aborted).toBe(true);
    expect((await a.get(short))?.state).toBe("done");
    // Handed back: queued at once, the interrupted run not counted.
    expect(await a.get(long)).toMatchObject({ state: "queued", attempts: 0, lockedBy: null });

    const b = queue({ instanceId: "next" });
    b.register("long", async () => {});
    await b.start();
    expect(await stateOf(b, long, "done")).toMatchObject({ attempts: 1 });
  });

  it("aborts a run whose lease another worker took, and does not overwrite its outcome", async () => {
    const q = queue({ leaseMs: 150 });
    let aborted = false;
    q.register("stolen", async ({ signal }) => {
      await until(() => signal.aborted, "the abort");
      aborted = true;
    });
    await q.start();
    const id = await q.enqueue("stolen", {});
    await stateOf(q, id, "running");
    await database.db
      .updateTable("jobs")
      .set({ locked_by: "thief", locked_until: sql<Date>`now() + interval '1 minute'` })
      .where("id", "=", id)
      .execute();
    await until(() => aborted, "the run to be aborted");
    await sleep(50);
    expect(await q.get(id)).toMatchObject({ state: "running", lockedBy: "thief" });
    expect(logs.some((l) => l.msg?.includes("lease lost"))).toBe(true);
  });

  it("enqueues with the caller's transaction: nothing on rollback, the job on commit", async () => {
    const q = queue();
    const ran: unknown[] = [];
    q.register("tx", async ({ payload }) => void ran.push(payload));
    await q.start();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await q.enqueue("tx", { committed: false }, { db: trx });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const id = await database.db
      .transaction()
      .execute(async (trx) => q.enqueue("tx", { committed: true }, { db: trx }));
    await stateOf(q, id, "done");
    await sleep(60);
    const names = await database.db.selectFrom("jobs").select("payload").execute();
    expect(names.map((r) => r.payload)).toEqual([{ committed: true }]);
    expect(ran).toEqual([{ committed: true }]);
  });

  it("deletes done jobs after a week and keeps failed ones", async () => {
    const insertFinished = async (state: "done" | "failed", daysAgo: number) => {
      const row = await database.db
        .insertInto("jobs")
        .values({
          name: "old",
          payload: sql<string>`'{}'::jsonb`,
          state,
          finished_at: sql<Date>`now() - make_interval(days => ${daysAgo})`,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const oldDone = await insertFinished("done", 8);
    const recentDone = await insertFinished("done", 1);
    const oldFailed = await insertFinished("failed", 30);
    const q = queue();
    await q.start();
    await until(async () => !(await q.get(oldDone)), "the old done job to go");
    expect((await q.get(recentDone))?.state).toBe("done");
    expect((await q.get(oldFailed))?.state).toBe("failed");
  });
});
