/**
 * The run/step engine (server/runs) on real databases: PGlite always, PostgreSQL when
 * global-setup found a server. A throwaway kind (runs-fixtures.ts) writes a row per step effect
 * in the step's transaction, so a step that ran twice, or ran after its run ended, shows.
 * runs-crash.test.ts kills a real server process in the middle of runs.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../server/db";
import { createJobQueue, type JobQueue } from "../../server/jobs";
import {
  createRunEngine,
  type Run,
  RunChainError,
  type RunEngine,
  type RunStatus,
  type StartInput,
} from "../../server/runs";
import { until } from "./jobs-helpers";
import { createTestDatabase, type TestDatabase } from "./pg";
import {
  EFFECTS_SQL,
  newProbe,
  type Probe,
  registerTestKind,
  type TestDefinition,
  type TestStep,
} from "./runs-fixtures";

const pgUrl = inject("pgUrl");
const DRIVERS: ("pglite" | "postgres")[] = pgUrl ? ["pglite", "postgres"] : ["pglite"];
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const silent = { info() {}, warn() {}, error() {} };

describe.each(DRIVERS)("run engine on %s", (driver) => {
  let database: DatabaseHandle;
  let pgDatabase: TestDatabase | null = null;
  let jobs: JobQueue;
  let runs: RunEngine;
  let probe: Probe;
  let n = 0;

  beforeAll(async () => {
    if (driver === "postgres") {
      pgDatabase = await createTestDatabase(pgUrl as string);
      database = await openDatabase({ databaseUrl: pgDatabase.url });
    } else {
      database = await openDatabase({ databaseUrl: null, pgliteDir: "memory://" });
    }
    await sql.raw(EFFECTS_SQL).execute(database.db);
    jobs = createJobQueue({ db: database.db, log: silent, pollMs: 20, leaseMs: 3000, stopTimeoutMs: 500 });
    runs = createRunEngine({ db: database.db, jobs, log: silent });
    probe = newProbe();
    registerTestKind(runs, probe);
    await jobs.start();
  });

  afterAll(async () => {
    await jobs?.stop();
    await database?.close();
    if (pgDatabase) await sleep(100);
    await pgDatabase?.drop();
  });

  const db = () => database.db;

  function start(steps: TestStep[], extra: Partial<StartInput<TestDefinition>> = {}) {
    n++;
    return runs.start(db(), {
      kind: "test",
      ownerKey: extra.ownerKey ?? `owner-${n}`,
      definition: { steps },
      subject: { type: "client", id: `client-${n}` },
      ...extra,
    });
  }

  async function settled(id: string, status: RunStatus, timeoutMs = 10_000) {
    return until(
      async () => {
        const run = await runs.get(id);
        return run?.status === status ? run : undefined;
      },
      `run ${id} to be ${status}`,
      timeoutMs,
    );
  }

  /** How many times each step of a run wrote its effect. */
  async function effects(runId: string): Promise<Record<string, number>> {
    const { rows } = await sql<{ step_key: string; n: string }>`
      select step_key, count(*) as n from run_effects where run_id = ${runId} group by step_key`.execute(
      db(),
    );
    return Object.fromEntries(rows.map((r) => [r.step_key, Number(r.n)]));
  }

  /** Jobs of a run's step by state. */
  async function stepJobs(runId: string, key: string) {
    const rows = await db()
      .selectFrom("jobs")
      .select(["state", "run_at"])
      .where("name", "=", "run.test")
      .where(sql<boolean>`payload ->> 'runId' = ${runId} and payload ->> 'key' = ${key}`)
      .execute();
    return rows;
  }

  it("runs steps in order, a wait as a job due later, and records each step", async () => {
    const { run, created } = await start(
      [
        { key: "a", type: "write" },
        { key: "pause", type: "wait", ms: 400 },
        { key: "b", type: "write" },
      ],
      { context: { trigger: "client created" }, version: 3 },
    );
    expect(created).toBe(true);
    expect(run).toMatchObject({ kind: "test", version: 3, status: "running", cursor: "a", depth: 0 });
    const done = await settled(run.id, "finished");
    expect(done.cursor).toBeNull();
    expect(done.context).toEqual({ trigger: "client created" });
    expect(done.outputs).toEqual({ a: { wrote: "a" }, b: { wrote: "b" } });
    expect(done.definition).toEqual({
      steps: [
        { key: "a", type: "write" },
        { key: "pause", type: "wait", ms: 400 },
        { key: "b", type: "write" },
      ],
    });
    expect(done.steps.map((s) => [s.seq, s.key, s.type, s.status, s.attempt])).toEqual([
      [1, "a", "write", "done", 1],
      [2, "pause", "wait", "done", 1],
      [3, "b", "write", "done", 1],
    ]);
    const [a, pause, b] = done.steps;
    expect(a.input).toEqual({ table: "run_effects" });
    // The step after the wait was due 400 ms after the wait started, and did not run before.
    // (Not after it finished: its record is written after its executor, later on a busy machine.)
    expect(b.dueAt.getTime() - (pause.startedAt as Date).getTime()).toBeGreaterThanOrEqual(400);
    expect((b.startedAt as Date).getTime()).toBeGreaterThanOrEqual(b.dueAt.getTime());
    expect(await effects(run.id)).toEqual({ a: 1, b: 1 });
    expect(probe.ended.filter((r) => r.id === run.id).map((r) => r.status)).toEqual(["finished"]);
  });

  it("runs the steps due now in one job: one transaction, and a new one after outside work", async () => {
    const { run } = await start([
      { key: "a", type: "write" },
      { key: "b", type: "write" },
      { key: "ask", type: "call" },
      { key: "c", type: "write" },
    ]);
    const done = await settled(run.id, "finished");
    expect(await effects(run.id)).toEqual({ a: 1, b: 1, ask: 1, c: 1 });
    expect(done.steps.map((st) => [st.key, st.status, st.attempt])).toEqual([
      ["a", "done", 1],
      ["b", "done", 1],
      ["ask", "done", 1],
      ["c", "done", 1],
    ]);
    // One job ran them all: a and b in one transaction; the call's outside work between two
    // transactions, the job carried on to it (its key) in the first one. The queue marks the
    // job done after its handler returns, which may be just after the run's last commit.
    const jobRows = () =>
      db()
        .selectFrom("jobs")
        .select(["state", "key", "attempts"])
        .where("name", "=", "run.test")
        .where(sql<boolean>`payload ->> 'runId' = ${run.id}`)
        .execute();
    await until(
      async () => (await jobRows()).every((r) => r.state !== "running") || undefined,
      "the run's job to end",
      30_000,
    );
    expect(await jobRows()).toEqual([{ state: "done", key: `run:${run.id}:ask`, attempts: 1 }]);
  });

  it("tells the kind which owners' runs moved, after the commits (the change feed)", async () => {
    const { run } = await start([{ key: "a", type: "write" }], { ownerKey: "fed-owner" });
    await settled(run.id, "finished");
    const told = await until(
      () => probe.moved.find((m) => m.ownerKey === "fed-owner" && m.movedAt >= run.startedAt),
      "the feed to tell of fed-owner",
      10_000,
    );
    expect(told.lastStartedAt.getTime()).toBe(run.startedAt.getTime());
  });

  it("shows a run waiting while its wait lasts", async () => {
    const { run } = await start([
      { key: "pause", type: "wait", ms: 60_000 },
      { key: "b", type: "write" },
    ]);
    const waiting = await settled(run.id, "waiting");
    expect(waiting.cursor).toBe("b");
    const [job] = await stepJobs(run.id, "b");
    expect(job.state).toBe("queued");
    expect(job.run_at.getTime()).toBeGreaterThan(Date.now() + 50_000);
    await runs.cancel(run.id);
  });

  it("does not double a step whose job is delivered twice, at once or after it ran", async () => {
    // Four jobs race for step a: the keyed one start() queues and three more, as if redelivered.
    const { run } = await db()
      .transaction()
      .execute(async (trx) => {
        const started = await runs.start(trx, {
          kind: "test",
          ownerKey: "dup",
          definition: {
            steps: [
              { key: "a", type: "slow", ms: 50 },
              { key: "b", type: "write" },
            ],
          },
        });
        await jobs.enqueueMany(
          "run.test",
          [1, 2, 3].map(() => ({ runId: started.run.id, key: "a" })),
          { db: trx },
        );
        return started;
      });
    await settled(run.id, "finished");
    // Late copies of both steps, after the run finished.
    const late = await jobs.enqueueMany("run.test", [
      { runId: run.id, key: "a" },
      { runId: run.id, key: "b" },
    ]);
    await until(
      async () => (await Promise.all(late.map((id) => jobs.get(id)))).every((j) => j?.state === "done"),
      "the late copies to be handled",
    );
    expect(await effects(run.id)).toEqual({ a: 1, b: 1 });
    expect((await runs.get(run.id))?.steps.map((s) => s.attempt)).toEqual([1, 1]);
  });

  it("exits every active run of a subject before its next step", async () => {
    const subject = { type: "client", id: "replier" };
    const steps: TestStep[] = [
      { key: "a", type: "write" },
      { key: "pause", type: "wait", ms: 60_000 },
      { key: "b", type: "write" },
    ];
    const first = (await start(steps, { subject })).run;
    const second = (await start(steps, { subject, ownerKey: "other-sequence" })).run;
    const bystander = (
      await start([
        { key: "a", type: "write" },
        { key: "pause", type: "wait", ms: 300 },
        { key: "b", type: "write" },
      ])
    ).run;
    for (const r of [first, second]) await settled(r.id, "waiting");
    const exited = await runs.exit(db(), { subject, reason: "replied" });
    expect(exited.map((r) => r.id).sort()).toEqual([first.id, second.id].sort());
    const gone = await runs.get(first.id);
    expect(gone).toMatchObject({ status: "exited", exitReason: "replied", cursor: "b" });
    expect(gone?.finishedAt).toBeInstanceOf(Date);
    expect(gone?.steps.find((s) => s.key === "b")?.status).toBe("skipped");
    // The wait's job is gone; a stray copy of it, run now, finds the run ended.
    expect(await stepJobs(first.id, "b")).toEqual([]);
    const [stray] = await jobs.enqueueMany("run.test", [{ runId: first.id, key: "b" }]);
    await until(async () => (await jobs.get(stray))?.state === "done", "the stray job");
    await settled(bystander.id, "finished");
    expect(await effects(first.id)).toEqual({ a: 1 });
    expect(await effects(second.id)).toEqual({ a: 1 });
    expect(await effects(bystander.id)).toEqual({ a: 1, b: 1 });
    // Nothing active is left to exit.
    expect(await runs.exit(db(), { subject, reason: "replied" })).toEqual([]);
  });

  it("exits on the kind's exit check before a step runs, and a step may end its run", async () => {
    const { run } = await start([
      { key: "a", type: "write" },
      // Long enough for the opt-out below to land first on a busy machine.
      { key: "pause", type: "wait", ms: 2000 },
      { key: "b", type: "write" },
    ]);
    await settled(run.id, "waiting");
    await sql`insert into run_optouts (subject_id) values (${run.subject?.id})`.execute(db());
    const exited = await settled(run.id, "exited");
    expect(exited.exitReason).toBe("opted-out");
    expect(exited.steps.find((s) => s.key === "b")?.status).toBe("skipped");
    expect(await effects(run.id)).toEqual({ a: 1 });

    const left = (
      await start([
        { key: "a", type: "write" },
        { key: "stop", type: "leave", reason: "won" },
        { key: "b", type: "write" },
      ])
    ).run;
    const after = await settled(left.id, "exited");
    expect(after).toMatchObject({ exitReason: "won", outputs: { a: { wrote: "a" }, stop: { left: true } } });
    expect(await effects(left.id)).toEqual({ a: 1 });
  });

  it("does not move a run on that its own step exited", async () => {
    const subject = { type: "client", id: "self-exit" };
    const { run } = await start(
      [
        { key: "a", type: "exitAll", reason: "won" },
        { key: "b", type: "write" },
      ],
      { subject },
    );
    const exited = await settled(run.id, "exited");
    expect(exited).toMatchObject({ exitReason: "won", cursor: "a" });
    expect(exited.steps.map((s) => [s.key, s.status])).toEqual([["a", "done"]]);
    expect(await stepJobs(run.id, "b")).toEqual([]);
    expect(await effects(run.id)).toEqual({ a: 1 });
    expect(probe.ended.filter((r) => r.id === run.id).map((r) => r.status)).toEqual(["exited"]);
  });

  it("fails a run whose flow comes back to a step, within one batch or after a wait", async () => {
    // A batch keeps its moves in memory until it ends: it must still see the step reached.
    const inBatch = (
      await start([
        { key: "a", type: "write" },
        { key: "b", type: "write" },
        { key: "a", type: "write" },
      ])
    ).run;
    // The same across transactions: the key was reached by an earlier one.
    const acrossWait = (
      await start([
        { key: "a", type: "write" },
        { key: "pause", type: "wait", ms: 50 },
        { key: "b", type: "write" },
        { key: "a", type: "write" },
      ])
    ).run;
    for (const [run, keys] of [
      [inBatch, ["a", "b"]],
      [acrossWait, ["a", "pause", "b"]],
    ] as const) {
      const failed = await settled(run.id, "failed");
      expect(failed.error).toBe('The flow came back to step "a": a run reaches each step once');
      expect(failed.steps.map((s) => [s.key, s.status])).toEqual(keys.map((k) => [k, "done"]));
      expect(await effects(run.id)).toEqual({ a: 1, b: 1 });
    }
  });

  it("lets a step in the middle of a batch exit its own run through the engine", async () => {
    const { run } = await start(
      [
        { key: "a", type: "write" },
        { key: "x", type: "exitAll", reason: "won" },
        { key: "b", type: "write" },
      ],
      { subject: { type: "client", id: "self-exit-batch" } },
    );
    const exited = await settled(run.id, "exited");
    expect(exited).toMatchObject({ exitReason: "won", cursor: "x", outputs: { a: { wrote: "a" } } });
    expect(exited.steps.map((s) => [s.key, s.status])).toEqual([
      ["a", "done"],
      ["x", "done"],
    ]);
    expect(await stepJobs(run.id, "b")).toEqual([]);
    expect(await effects(run.id)).toEqual({ a: 1, x: 1 });
    expect(probe.ended.filter((r) => r.id === run.id).map((r) => r.status)).toEqual(["exited"]);
  });

  it("retries a failing step with backoff, then fails the run and calls onRunFailed once", async () => {
    const { run } = await start([
      { key: "a", type: "write" },
      { key: "flaky", type: "flaky", failTimes: 99 },
      { key: "b", type: "write" },
    ]);
    const failed = await settled(run.id, "failed");
    const step = failed.steps.find((s) => s.key === "flaky");
    expect(step).toMatchObject({ status: "failed", attempt: 3, error: "Flaky step failed on attempt 3" });
    expect(failed).toMatchObject({ cursor: "flaky", error: "Flaky step failed on attempt 3" });
    // Waits of 150 ms then 300 ms between the three attempts (the kind's policy).
    const times = probe.attempts.get(`${run.id}:flaky`) as number[];
    expect(times).toHaveLength(3);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(145);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(295);
    // Failed attempts left no effect (rolled back) and b never ran.
    expect(await effects(run.id)).toEqual({ a: 1 });
    expect(probe.failed.filter((f) => f.run.id === run.id).map((f) => [f.run.status, f.step.key])).toEqual([
      ["failed", "flaky"],
    ]);
    const { rows } = await sql`select step_key, error from run_failures where run_id = ${run.id}`.execute(
      db(),
    );
    expect(rows).toEqual([{ step_key: "flaky", error: "Flaky step failed on attempt 3" }]);
  });

  it("runs a failed run again from its failed step, not from the start", async () => {
    const { run } = await start([
      { key: "a", type: "write" },
      { key: "flaky", type: "flaky", failTimes: 99 },
      { key: "b", type: "write" },
    ]);
    await settled(run.id, "failed");
    probe.healthy.add(run.id);
    const again = await runs.retryFromFailed(run.id);
    expect(again).toMatchObject({ status: "running", error: null, finishedAt: null, cursor: "flaky" });
    const done = await settled(run.id, "finished");
    // Fresh attempts: the first one after the re-run succeeded; its last error is kept.
    expect(done.steps.find((s) => s.key === "flaky")).toMatchObject({
      status: "done",
      attempt: 1,
      error: "Flaky step failed on attempt 3",
    });
    expect(await effects(run.id)).toEqual({ a: 1, flaky: 1, b: 1 });
    await expect(runs.retryFromFailed(run.id)).rejects.toMatchObject({ statusCode: 409 });
    await expect(runs.retryFromFailed("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it("succeeds on a retry; a PermanentStepError fails at once", async () => {
    const retried = (await start([{ key: "flaky", type: "flaky", failTimes: 1 }])).run;
    const done = await settled(retried.id, "finished");
    expect(done.steps[0]).toMatchObject({ status: "done", attempt: 2, output: { attempt: 2 } });
    expect(await effects(retried.id)).toEqual({ flaky: 1 });

    const fatal = (await start([{ key: "send", type: "fatal" }])).run;
    const failed = await settled(fatal.id, "failed");
    expect(failed.steps[0]).toMatchObject({
      status: "failed",
      attempt: 1,
      error: "The client cannot be reached",
    });

    const unknown = (await start([{ key: "x", type: "teleport" } as unknown as TestStep])).run;
    expect((await settled(unknown.id, "failed")).error).toBe('No executor for steps of type "teleport"');
  });

  it("resumes a run awaiting an event on its event branch, or on the timeout branch", async () => {
    const steps: TestStep[] = [
      {
        key: "ask",
        type: "await",
        event: "form.submitted",
        timeoutMs: 60_000,
        onEvent: "yes",
        onTimeout: "no",
      },
      { key: "yes", type: "write" },
      { key: "end", type: "leave", reason: "answered" },
      { key: "no", type: "write" },
    ];
    const answered = (await start(steps)).run;
    const waiting = await settled(answered.id, "waiting");
    expect(waiting).toMatchObject({ awaiting: "form.submitted", cursor: "ask" });
    expect(waiting.steps[0].status).toBe("waiting");
    // An event of another name, or for another subject, resumes nothing.
    expect(await runs.signal(db(), { subject: answered.subject ?? undefined, event: "other" })).toEqual([]);
    expect(
      await runs.signal(db(), { subject: { type: "client", id: "nobody" }, event: "form.submitted" }),
    ).toEqual([]);
    const resumed = await runs.signal(db(), {
      subject: answered.subject ?? undefined,
      event: "form.submitted",
      data: { rating: 5 },
    });
    expect(resumed.map((r) => r.id)).toEqual([answered.id]);
    const after = await settled(answered.id, "exited");
    expect(after.outputs.ask).toEqual({ resumedBy: "event", event: "form.submitted", data: { rating: 5 } });
    expect(await effects(answered.id)).toEqual({ yes: 1 });
    expect(await stepJobs(answered.id, "ask").then((j) => j.filter((x) => x.state === "queued"))).toEqual([]);

    const timedOut = (await start([{ ...steps[0], timeoutMs: 300 } as TestStep, ...steps.slice(1)])).run;
    const late = await settled(timedOut.id, "finished");
    expect(late.outputs.ask).toEqual({ resumedBy: "timeout" });
    expect(late.steps.map((s) => s.key)).toEqual(["ask", "no"]);
    expect(await effects(timedOut.id)).toEqual({ no: 1 });
  });

  it("does outside work before the step's transaction, with one idempotency key for every attempt", async () => {
    const { run } = await start([{ key: "hook", type: "call" }]);
    const done = await settled(run.id, "finished");
    const calls = probe.calls.filter((c) => c.key === `run:${run.id}:hook`);
    expect(calls).toEqual([{ key: `run:${run.id}:hook`, attempt: 1 }]);
    expect(done.outputs.hook).toMatchObject({ status: 202 });
    expect(await effects(run.id)).toEqual({ hook: 1 });
  });

  it("answers the active run for a dedupe key, and allows the key again once it ended", async () => {
    const steps: TestStep[] = [
      { key: "pause", type: "wait", ms: 60_000 },
      { key: "b", type: "write" },
    ];
    const first = await start(steps, { dedupeKey: "seq-1:client-9" });
    const second = await start(steps, { dedupeKey: "seq-1:client-9" });
    expect(second).toMatchObject({ created: false, run: { id: first.run.id } });
    await runs.cancel(first.run.id);
    const third = await start(steps, { dedupeKey: "seq-1:client-9" });
    expect(third.created).toBe(true);
    expect(third.run.id).not.toBe(first.run.id);
    await runs.cancel(third.run.id);
  });

  it("refuses chains deeper than the limit and runs that would trigger their own owner again", async () => {
    let parent: Run = (await start([{ key: "pause", type: "wait", ms: 60_000 }], { ownerKey: "chain-0" }))
      .run;
    for (let depth = 1; depth <= 5; depth++) {
      parent = (
        await start([{ key: "pause", type: "wait", ms: 60_000 }], { ownerKey: `chain-${depth}`, parent })
      ).run;
      expect(parent).toMatchObject({ depth, lineage: expect.arrayContaining([`test:chain-${depth - 1}`]) });
    }
    await expect(start([{ key: "a", type: "write" }], { ownerKey: "chain-6", parent })).rejects.toMatchObject(
      {
        reason: "depth",
      },
    );
    await expect(
      start([{ key: "a", type: "write" }], { ownerKey: "chain-2", parent }),
    ).rejects.toBeInstanceOf(RunChainError);
  });

  it("keeps a run in flight on the definition it started with", async () => {
    const v1 = (
      await start(
        [
          { key: "pause", type: "wait", ms: 300 },
          { key: "a", type: "write" },
        ],
        { ownerKey: "versioned", version: 1 },
      )
    ).run;
    // Version 2 of the same owner renames the step; the run of version 1 does not see it.
    const v2 = (await start([{ key: "z", type: "write" }], { ownerKey: "versioned", version: 2 })).run;
    expect(v2.definitionHash).not.toBe(v1.definitionHash);
    const done = await settled(v1.id, "finished");
    expect(done.version).toBe(1);
    expect(await effects(v1.id)).toEqual({ a: 1 });
  });

  it("counts an owner's runs by status and exit reason, and lists them newest first", async () => {
    const owner = "counted";
    const steps: TestStep[] = [
      { key: "pause", type: "wait", ms: 60_000 },
      { key: "b", type: "write" },
    ];
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await start(steps, { ownerKey: owner })).run.id);
    const finished = (await start([{ key: "a", type: "write" }], { ownerKey: owner })).run;
    await settled(finished.id, "finished");
    await runs.exit(db(), { subject: (await runs.get(ids[0]))?.subject as never, reason: "replied" });
    await runs.exit(db(), {
      subject: (await runs.get(ids[1]))?.subject as never,
      reason: "opted-out",
      ownerKey: owner,
    });
    await runs.cancel(ids[2]);
    const counts = (await runs.counts("test", [owner, "nobody"])).get(owner);
    expect(counts).toEqual({
      total: 6,
      byStatus: { running: 0, waiting: 2, finished: 1, failed: 0, exited: 2, cancelled: 1 },
      byExitReason: { replied: 1, "opted-out": 1 },
    });
    expect((await runs.counts("test", ["nobody"])).get("nobody")?.total).toBe(0);
    const page = await runs.list({
      kind: "test",
      ownerKey: owner,
      status: ["waiting", "exited"],
      pageSize: 3,
    });
    expect(page.total).toBe(4);
    expect(page.data.map((r) => r.id)).toEqual([ids[4], ids[3], ids[1]]);
    const bySubject = await runs.list({ kind: "test", subject: (await runs.get(ids[3]))?.subject as never });
    expect(bySubject.data.map((r) => r.id)).toEqual([ids[3]]);
    for (const id of ids.slice(3)) await runs.cancel(id);
  });

  it("cancels a run and its pending job; refuses to cancel twice", async () => {
    const { run } = await start([
      { key: "pause", type: "wait", ms: 60_000 },
      { key: "b", type: "write" },
    ]);
    await settled(run.id, "waiting");
    const cancelled = await runs.cancel(run.id);
    expect(cancelled).toMatchObject({ status: "cancelled", cursor: "b" });
    expect(await stepJobs(run.id, "b")).toEqual([]);
    await expect(runs.cancel(run.id)).rejects.toMatchObject({ statusCode: 409 });
    await expect(runs.cancel("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it("starts nothing in a transaction that rolls back; removes an owner's runs and jobs", async () => {
    let id = "";
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          id = (await runs.start(trx, { kind: "test", ownerKey: "rolled", definition: { steps: [] } })).run
            .id;
          throw new Error("the caller's write failed");
        }),
    ).rejects.toThrow("the caller's write failed");
    expect(await runs.get(id)).toBeUndefined();

    // A definition without steps finishes at once.
    const empty = (await start([], { ownerKey: "removed" })).run;
    expect(empty.status).toBe("finished");
    const waiting = (
      await start(
        [
          { key: "pause", type: "wait", ms: 60_000 },
          { key: "b", type: "write" },
        ],
        {
          ownerKey: "removed",
        },
      )
    ).run;
    await settled(waiting.id, "waiting");
    expect(await runs.removeOwner(db(), "test", "removed")).toBe(2);
    expect(await runs.get(waiting.id)).toBeUndefined();
    expect(await stepJobs(waiting.id, "b")).toEqual([]);
  });
});
