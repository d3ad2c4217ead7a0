/**
 * The run/step engine's failures and other calls (server/runs), on PGlite and PostgreSQL (see
 * runs.test.ts): retries and failed runs, events and timeouts, outside work, dedupe keys,
 * chains, pinned definitions, counts, cancels and rollbacks.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { type Run, RunChainError } from "../../server/runs";
import type { TestStep } from "./runs-fixtures";
import { DRIVERS, runEngineSuite } from "./runs-suite";

describe.each(DRIVERS)("run engine on %s: failures and calls", (driver) => {
  const t = runEngineSuite(driver);
  const { db, start, settled, effects, stepJobs } = t;

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
    const times = t.probe.attempts.get(`${run.id}:flaky`) as number[];
    expect(times).toHaveLength(3);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(145);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(295);
    // Failed attempts left no effect (rolled back) and b never ran.
    expect(await effects(run.id)).toEqual({ a: 1 });
    expect(t.probe.failed.filter((f) => f.run.id === run.id).map((f) => [f.run.status, f.step.key])).toEqual([
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
    t.probe.healthy.add(run.id);
    const again = await t.runs.retryFromFailed(run.id);
    expect(again).toMatchObject({ status: "running", error: null, finishedAt: null, cursor: "flaky" });
    const done = await settled(run.id, "finished");
    // Fresh attempts: the first one after the re-run succeeded; its last error is kept.
    expect(done.steps.find((s) => s.key === "flaky")).toMatchObject({
      status: "done",
      attempt: 1,
      error: "Flaky step failed on attempt 3",
    });
    expect(await effects(run.id)).toEqual({ a: 1, flaky: 1, b: 1 });
    await expect(t.runs.retryFromFailed(run.id)).rejects.toMatchObject({ statusCode: 409 });
    await expect(t.runs.retryFromFailed("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
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
    expect(await t.runs.signal(db(), { subject: answered.subject ?? undefined, event: "other" })).toEqual([]);
    expect(
      await t.runs.signal(db(), { subject: { type: "client", id: "nobody" }, event: "form.submitted" }),
    ).toEqual([]);
    const resumed = await t.runs.signal(db(), {
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
    const calls = t.probe.calls.filter((c) => c.key === `run:${run.id}:hook`);
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
    await t.runs.cancel(first.run.id);
    const third = await start(steps, { dedupeKey: "seq-1:client-9" });
    expect(third.created).toBe(true);
    expect(third.run.id).not.toBe(first.run.id);
    await t.runs.cancel(third.run.id);
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
    await t.runs.exit(db(), { subject: (await t.runs.get(ids[0]))?.subject as never, reason: "replied" });
    await t.runs.exit(db(), {
      subject: (await t.runs.get(ids[1]))?.subject as never,
      reason: "opted-out",
      ownerKey: owner,
    });
    await t.runs.cancel(ids[2]);
    const counts = (await t.runs.counts("test", [owner, "nobody"])).get(owner);
    expect(counts).toEqual({
      total: 6,
      byStatus: { running: 0, waiting: 2, finished: 1, failed: 0, exited: 2, cancelled: 1 },
      byExitReason: { replied: 1, "opted-out": 1 },
    });
    expect((await t.runs.counts("test", ["nobody"])).get("nobody")?.total).toBe(0);
    const page = await t.runs.list({
      kind: "test",
      ownerKey: owner,
      status: ["waiting", "exited"],
      pageSize: 3,
    });
    expect(page.total).toBe(4);
    expect(page.data.map((r) => r.id)).toEqual([ids[4], ids[3], ids[1]]);
    const bySubject = await t.runs.list({
      kind: "test",
      subject: (await t.runs.get(ids[3]))?.subject as never,
    });
    expect(bySubject.data.map((r) => r.id)).toEqual([ids[3]]);
    for (const id of ids.slice(3)) await t.runs.cancel(id);
  });

  it("cancels a run and its pending job; refuses to cancel twice", async () => {
    const { run } = await start([
      { key: "pause", type: "wait", ms: 60_000 },
      { key: "b", type: "write" },
    ]);
    await settled(run.id, "waiting");
    const cancelled = await t.runs.cancel(run.id);
    expect(cancelled).toMatchObject({ status: "cancelled", cursor: "b" });
    expect(await stepJobs(run.id, "b")).toEqual([]);
    await expect(t.runs.cancel(run.id)).rejects.toMatchObject({ statusCode: 409 });
    await expect(t.runs.cancel("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it("starts nothing in a transaction that rolls back; removes an owner's runs and jobs", async () => {
    let id = "";
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          id = (await t.runs.start(trx, { kind: "test", ownerKey: "rolled", definition: { steps: [] } })).run
            .id;
          throw new Error("the caller's write failed");
        }),
    ).rejects.toThrow("the caller's write failed");
    expect(await t.runs.get(id)).toBeUndefined();

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
    expect(await t.runs.removeOwner(db(), "test", "removed")).toBe(2);
    expect(await t.runs.get(waiting.id)).toBeUndefined();
    expect(await stepJobs(waiting.id, "b")).toEqual([]);
  });
});
