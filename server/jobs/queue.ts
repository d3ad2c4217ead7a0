/**
 * The worker loop of the durable job queue: takes due jobs of the registered names from the
 * `jobs` table, runs their handlers within each name's concurrency, keeps their leases alive,
 * and records the outcome. contract.ts holds the types, jobs.repository.ts the SQL, job-run.ts
 * one run's handler call.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import { within } from "../parallel";
import type { JobQueue, JobQueueOptions, RegisterOptions } from "./contract";
import { type ActiveRun, executeRun, type Handler, type Registration } from "./job-run";
import {
  deleteDone,
  expireAllLeases,
  extendLeases,
  getJob,
  insertJob,
  insertJobs,
  insertJobsFrom,
  releaseJobs,
  supersedeRunning,
  type TakenJob,
  takeJobs,
} from "./jobs.repository";
import { retryDelayMs } from "./retry";

const DEFAULT_MAX_ATTEMPTS = 5;
const CLEANUP_EVERY_MS = 60 * 60 * 1000;

function positiveInt(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${what} must be a positive integer`);
  return value;
}

/**
 * Creates a worker on the jobs table. The same code runs on PGlite and on PostgreSQL,
 * where any number of instances may share the table.
 *
 * @example
 * const jobs = createJobQueue({ db, log: app.log, reclaimOnStart: database.kind === "pglite" });
 * jobs.register<{ assetId: string }>("dam.thumbnail", async ({ payload, signal }) => {
 *   await renderThumbnail(payload.assetId, signal);
 * }, { concurrency: 2 });
 * await jobs.start();
 * await db.transaction().execute(async (trx) => {
 *   const asset = await insertAsset(trx, input);
 *   await jobs.enqueue("dam.thumbnail", { assetId: asset.id }, { db: trx, key: asset.id });
 * });
 */
export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { db, log } = options;
  const instanceId = options.instanceId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? 30_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  const delayFor = options.retryDelayMs ?? retryDelayMs;
  const keepDoneMs = options.keepDoneMs ?? 7 * 24 * 60 * 60 * 1000;
  const busy = options.busy ?? (() => false);

  const registry = new Map<string, Registration>();
  const active = new Map<string, ActiveRun>();
  let started = false;
  let stopping: Promise<void> | null = null;
  let cycling: Promise<void> | null = null;
  let again = false;
  let beating = false;
  let lastCleanup = 0;
  let pollTimer: NodeJS.Timeout | null = null;
  /** A wake-up at the earliest run time of a job this worker queued for later (wakeAt). */
  let dueTimer: { at: number; timer: NodeJS.Timeout } | null = null;
  /**
   * The names the next look asks for: every registered one (a poll, a start, a timer), or only
   * those a wake-up named since the last look (a job of that name queued, a slot of it freed).
   * A look costs the database one probe per name asked for: with every name (two dozen) it was
   * most of a PGlite process's job-queue time under a form's load, one name a tenth of that.
   */
  let look: Set<string> | "all" = "all";
  /** Polls failed in a row (the database is down): logged once, then again when it is back. */
  let failedPolls = 0;
  let heartbeatTimer: NodeJS.Timeout | null = null;

  function register(
    name: string,
    handler: Handler,
    opts: RegisterOptions,
    recurring?: Registration["recurring"],
  ) {
    if (!name) throw new Error("A job name is required");
    if (registry.has(name)) throw new Error(`Job "${name}" is registered already`);
    registry.set(name, {
      name,
      handler,
      concurrency: positiveInt(opts.concurrency ?? 1, "concurrency"),
      maxAttempts: positiveInt(opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS, "maxAttempts"),
      running: 0,
      mayHaveMore: true,
      recurring,
      background: opts.background ?? false,
    });
    wake();
  }

  /** Looks for due jobs now (or right after the look in progress): of `name` only, if given. */
  function wake(name?: string): void {
    if (!started) return;
    if (name === undefined) look = "all";
    else if (look !== "all") look.add(name);
    if (cycling) {
      again = true;
      return;
    }
    cycling = runCycles().finally(() => {
      cycling = null;
    });
  }

  /**
   * Looks for due jobs at `at` too: a job this worker queued for then (a run's delay) is taken
   * on time, not at the poll after it. Only the earliest is kept; each wake-up is a look like
   * a poll's, so one for a job another worker took, or a rolled-back one, costs one look.
   */
  function wakeAt(at: Date | null | undefined): void {
    const time = at?.getTime();
    if (time === undefined || !started) return;
    const delay = time - Date.now();
    if (delay <= 0 || delay > 2 ** 31 - 1) return;
    if (dueTimer && dueTimer.at <= time && dueTimer.at > Date.now()) return;
    if (dueTimer) clearTimeout(dueTimer.timer);
    const timer = setTimeout(() => {
      dueTimer = null;
      wake();
    }, delay + 1);
    timer.unref();
    dueTimer = { at: time, timer };
  }

  async function runCycles(): Promise<void> {
    do {
      again = false;
      try {
        await cycle();
        if (failedPolls) log.info({ failedPolls }, "job queue: taking jobs again");
        failedPolls = 0;
      } catch (err) {
        // The next poll tries again; looping now would spin on a database that is down.
        // One error line per outage, not one per poll.
        if (failedPolls++ === 0) log.error({ err }, "job queue: could not take jobs; retrying every poll");
        return;
      }
    } while (again && started);
  }

  async function cycle(): Promise<void> {
    await cleanupIfDue();
    const names = look;
    look = new Set();
    const wanted: { name: string; limit: number }[] = [];
    for (const reg of registry.values()) {
      if (names !== "all" && !names.has(reg.name)) continue;
      const free = reg.concurrency - reg.running;
      if (free <= 0) continue;
      // Busy: a background name gets one run at a time, started by a poll (or a timer), never
      // by the wake-ups of the requests keeping the process busy. Its jobs stay due meanwhile.
      if (reg.background && busy()) {
        if (names === "all" && !reg.running) wanted.push({ name: reg.name, limit: 1 });
        continue;
      }
      wanted.push({ name: reg.name, limit: free });
    }
    if (!wanted.length) return;
    const { taken, exhausted } = await takeJobs(db, {
      wanted,
      exclude: [...active.keys()],
      lockedBy: instanceId,
      leaseMs,
    });
    for (const job of exhausted) {
      log.error({ jobId: job.id, job: job.name }, "job failed: its worker stopped during the last attempt");
    }
    if (!started) {
      // stop() came while we were taking: hand them straight back.
      await releaseJobs(
        db,
        taken.map((j) => j.id),
        instanceId,
      );
      return;
    }
    for (const { name, limit } of wanted) {
      const reg = registry.get(name);
      if (reg) reg.mayHaveMore = taken.filter((j) => j.name === name).length >= limit;
    }
    for (const job of taken) launch(job);
  }

  async function cleanupIfDue(): Promise<void> {
    if (Date.now() - lastCleanup < CLEANUP_EVERY_MS) return;
    lastCleanup = Date.now();
    try {
      const deleted = await deleteDone(db, keepDoneMs);
      if (deleted) log.info({ deleted }, "job queue: deleted old done jobs");
    } catch (err) {
      log.warn({ err }, "job queue: could not delete old done jobs");
    }
  }

  function launch(job: TakenJob): void {
    const reg = registry.get(job.name);
    if (!reg) return; // only registered names are taken
    reg.running++;
    const run: ActiveRun = {
      job,
      controller: new AbortController(),
      finishing: false,
      released: false,
      lost: false,
      ended: false,
      done: Promise.resolve(),
    };
    active.set(job.id, run);
    run.done = executeRun({ db, log, instanceId, delayFor, wakeAt }, reg, run).finally(() => {
      active.delete(job.id);
      // A slot freed while the last look took as many jobs of the name as it had room for: due
      // jobs may have been left for it. Otherwise that look took every due job, and a job queued
      // since woke the queue itself (enqueue, a start's wake, wakeAt, the poll): a look now
      // would find nothing, and cost a statement per job (a third of a run's on PGlite).
      reg.running--;
      if (reg.mayHaveMore) wake(reg.name);
    });
  }

  async function heartbeat(): Promise<void> {
    if (beating) return;
    beating = true;
    try {
      const held = () =>
        [...active.values()].filter((r) => !r.finishing && !r.released && !r.lost && !r.ended);
      const runs = held();
      if (!runs.length) return;
      const kept = await extendLeases(
        db,
        runs.map((r) => r.job.id),
        instanceId,
        leaseMs,
      );
      for (const run of held()) {
        if (kept.has(run.job.id) || !runs.includes(run)) continue;
        run.lost = true;
        run.controller.abort(new Error("job lease lost to another worker"));
        log.warn({ jobId: run.job.id, job: run.job.name }, "job lease lost to another worker; run aborted");
      }
    } catch (err) {
      log.error({ err }, "job queue: could not extend leases");
    } finally {
      beating = false;
    }
  }

  async function settle(): Promise<void> {
    const waiting = [...active.values()].filter((r) => !r.released);
    if (waiting.length) await within(Promise.all(waiting.map((r) => r.done)), stopTimeoutMs);
    const left = [...active.values()].filter((r) => !r.finishing && !r.released);
    for (const run of left) {
      run.released = true;
      run.controller.abort(new Error("job queue stopping"));
    }
    if (left.length) {
      const ids = left.map((r) => r.job.id);
      try {
        await releaseJobs(db, ids, instanceId);
        log.warn({ jobIds: ids }, "job queue stopped with jobs still running: aborted and handed back");
      } catch (err) {
        log.error({ err, jobIds: ids }, "could not hand back running jobs; they run again after their lease");
      }
    }
    await Promise.all([...active.values()].filter((r) => r.finishing).map((r) => r.done));
  }

  return {
    instanceId,

    register(name, handler, opts = {}) {
      register(name, handler as Handler, opts);
    },

    recurring(name, everyMs, initial, handler) {
      register(
        name,
        handler as Handler,
        { concurrency: 1 },
        { everyMs: positiveInt(everyMs, "everyMs"), initial },
      );
    },

    async enqueue(name, payload, opts = {}) {
      if (!name) throw new Error("A job name is required");
      const target = opts.db ?? db;
      const job = {
        name,
        payload,
        key: opts.key ?? null,
        runAt: opts.runAt ?? null,
        maxAttempts: positiveInt(
          opts.maxAttempts ?? registry.get(name)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
          "maxAttempts",
        ),
      };
      // A miss means a running job holds the key: supersede it and insert again. Each round
      // is atomic; a second miss needs a worker to take the new job in between.
      for (let round = 0; round < 5; round++) {
        const id = await insertJob(target, job);
        if (id) {
          // In a caller's transaction the job is visible only after commit: the next poll sees it.
          wake(name);
          wakeAt(job.runAt);
          return id;
        }
        if (job.key === null) break;
        await supersedeRunning(target, name, job.key);
      }
      throw new Error(`Could not enqueue job "${name}" with key "${job.key}"`);
    },

    enqueueFrom(name, rows, opts = {}) {
      if (!name) throw new Error("A job name is required");
      const maxAttempts = positiveInt(
        opts.maxAttempts ?? registry.get(name)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        "maxAttempts",
      );
      return insertJobsFrom(name, rows, maxAttempts);
    },

    wake,

    async enqueueMany(name, payloads, opts = {}) {
      if (!name) throw new Error("A job name is required");
      const maxAttempts = positiveInt(
        opts.maxAttempts ?? registry.get(name)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        "maxAttempts",
      );
      const ids = await insertJobs(opts.db ?? db, name, payloads, maxAttempts, opts.together);
      if (ids.length) wake(name);
      return ids;
    },

    async start() {
      if (stopping) await stopping;
      if (started) return;
      started = true;
      if (options.reclaimOnStart) {
        const reclaimed = await expireAllLeases(db);
        if (reclaimed)
          log.info({ reclaimed }, "job queue: taking back jobs left running by a previous process");
        if (!started) return; // stop() came meanwhile
      }
      for (const reg of registry.values()) {
        if (!reg.recurring) continue;
        // Answers null (keeps the row) when another instance is running it: nothing to do then.
        const job = { name: reg.name, payload: reg.recurring.initial, key: reg.name, runAt: null };
        await insertJob(db, { ...job, maxAttempts: reg.maxAttempts });
      }
      pollTimer = setInterval(() => wake(), pollMs);
      heartbeatTimer ??= setInterval(() => void heartbeat(), Math.max(Math.floor(leaseMs / 3), 10));
      log.info({ instanceId, jobs: [...registry.keys()] }, "job queue started");
      wake();
    },

    async stop() {
      if (!started) return stopping ?? undefined;
      started = false;
      if (pollTimer) clearInterval(pollTimer);
      pollTimer = null;
      if (dueTimer) clearTimeout(dueTimer.timer);
      dueTimer = null;
      stopping = (async () => {
        await cycling;
        await settle();
        if (heartbeatTimer) clearInterval(heartbeatTimer);
        heartbeatTimer = null;
        log.info({ instanceId }, "job queue stopped");
      })();
      try {
        await stopping;
      } finally {
        stopping = null;
      }
    },

    get: (id) => getJob(db, id),
  };
}
