/**
 * The run/step engine (server/runs) on real databases: PGlite always, PostgreSQL when
 * global-setup found a server. A throwaway kind (runs-fixtures.ts) writes a row per step effect
 * in the step's transaction, so a step that ran twice, or ran after its run ended, shows.
 * This file: steps in order, batches, the change feed, doubles, exits and loops;
 * runs-failures.test.ts: retries, failed runs, events and the engine's other calls;
 * runs-crash.test.ts kills a real server process in the middle of runs.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { until } from "./jobs-helpers";
import type { TestStep } from "./runs-fixtures";
import { DRIVERS, runEngineSuite } from "./runs-suite";

describe.each(DRIVERS)("run engine on %s", (driver) => {
  const t = runEngineSuite(driver);
  const { db, start, settled, effects, stepJobs } = t;

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
    expect(t.probe.ended.filter((r) => r.id === run.id).map((r) => r.status)).toEqual(["finished"]);
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
      () => t.probe.moved.find((m) => m.ownerKey === "fed-owner" && m.movedAt >= run.startedAt),
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
    await t.runs.cancel(run.id);
  });

  it("does not double a step whose job is delivered twice, at once or after it ran", async () => {
    // Four jobs race for step a: the keyed one start() queues and three more, as if redelivered.
    const { run } = await db()
      .transaction()
      .execute(async (trx) => {
        const started = await t.runs.start(trx, {
          kind: "test",
          ownerKey: "dup",
          definition: {
            steps: [
              { key: "a", type: "slow", ms: 50 },
              { key: "b", type: "write" },
            ],
          },
        });
        await t.jobs.enqueueMany(
          "run.test",
          [1, 2, 3].map(() => ({ runId: started.run.id, key: "a" })),
          { db: trx },
        );
        return started;
      });
    await settled(run.id, "finished");
    // Late copies of both steps, after the run finished.
    const late = await t.jobs.enqueueMany("run.test", [
      { runId: run.id, key: "a" },
      { runId: run.id, key: "b" },
    ]);
    await until(
      async () => (await Promise.all(late.map((id) => t.jobs.get(id)))).every((j) => j?.state === "done"),
      "the late copies to be handled",
    );
    expect(await effects(run.id)).toEqual({ a: 1, b: 1 });
    expect((await t.runs.get(run.id))?.steps.map((s) => s.attempt)).toEqual([1, 1]);
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
    const exited = await t.runs.exit(db(), { subject, reason: "replied" });
    expect(exited.map((r) => r.id).sort()).toEqual([first.id, second.id].sort());
    const gone = await t.runs.get(first.id);
    expect(gone).toMatchObject({ status: "exited", exitReason: "replied", cursor: "b" });
    expect(gone?.finishedAt).toBeInstanceOf(Date);
    expect(gone?.steps.find((s) => s.key === "b")?.status).toBe("skipped");
    // The wait's job is gone; a stray copy of it, run now, finds the run ended.
    expect(await stepJobs(first.id, "b")).toEqual([]);
    const [stray] = await t.jobs.enqueueMany("run.test", [{ runId: first.id, key: "b" }]);
    await until(async () => (await t.jobs.get(stray))?.state === "done", "the stray job");
    await settled(bystander.id, "finished");
    expect(await effects(first.id)).toEqual({ a: 1 });
    expect(await effects(second.id)).toEqual({ a: 1 });
    expect(await effects(bystander.id)).toEqual({ a: 1, b: 1 });
    // Nothing active is left to exit.
    expect(await t.runs.exit(db(), { subject, reason: "replied" })).toEqual([]);
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
    expect(t.probe.ended.filter((r) => r.id === run.id).map((r) => r.status)).toEqual(["exited"]);
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
    expect(t.probe.ended.filter((r) => r.id === run.id).map((r) => r.status)).toEqual(["exited"]);
  });
});
