// A step's run locked for its job (lockRunnable), and a failed attempt of a step recorded.
import type { Transaction } from "kysely";
import type { Database } from "../db";
import type { JobContext } from "../jobs";
import { flushMoves } from "./batch-moves";
import type { Run, RunStep } from "./contract";
import { type EngineCore, errorText, type KindEntry, retryPolicyOf, type StepJob } from "./core";
import { PermanentStepError } from "./errors";
import { lockRun, updateStep } from "./runs.repository";
import { type StepCarrier, settleCarry, stepCarrier } from "./step-carrier";
import { enqueueStep } from "./step-jobs";
import { endRun } from "./transitions";

type Trx = Transaction<Database>;

/**
 * The step's run if the step is still the one to run, else undefined (the job has nothing to
 * do). The kind's subject comes with the lock (RunKind.subjectRead), told to the kind.
 */
export async function lockRunnable(
  trx: Trx,
  entry: KindEntry,
  job: StepJob,
  reached = false,
): Promise<{ run: Run; step: RunStep; reached: string[] } | undefined> {
  const read = entry.kind.subjectRead;
  const locked = await lockRun(trx, job.runId, job.key, { subject: read, reached });
  if (!locked?.step) return undefined;
  const { run, step } = locked;
  if (run.status !== "running" && run.status !== "waiting") return undefined;
  if (run.cursor !== job.key) return undefined;
  if (step.status !== "scheduled" && step.status !== "waiting") return undefined;
  if (read && locked.subject !== undefined) read.locked(trx, run, locked.subject);
  return { run, step, reached: locked.reached ?? [] };
}

/**
 * Records a failed attempt of the step: retried after the backoff while attempts remain (a new
 * job of the same key), else the step and its run fail and the kind's onRunFailed is called.
 */
export async function recordFailure(
  core: EngineCore,
  entry: KindEntry,
  job: JobContext<StepJob>,
  target: StepJob,
  error: unknown,
  startedAt: Date,
): Promise<void> {
  const carrier = stepCarrier(job, target.runId);
  await core.db.transaction().execute(async (trx) => {
    await recordFailureIn(core, entry, trx, target, error, startedAt, carrier);
    await settleCarry(core, entry, trx, job, carrier, target.runId);
  });
}

/**
 * recordFailure in the caller's transaction (a batch's step that failed); the retry's job is
 * the carrier's, queued again for its time.
 */
export async function recordFailureIn(
  core: EngineCore,
  entry: KindEntry,
  trx: Trx,
  job: StepJob,
  error: unknown,
  startedAt: Date,
  carrier: StepCarrier,
): Promise<void> {
  // The batch's moves before it, written: the failure is recorded on the rows as they are.
  await flushMoves(trx);
  const runnable = await lockRunnable(trx, entry, job);
  if (!runnable) return;
  const { run, step } = runnable;
  const definition = await core.definitions.get(trx, run.definitionHash);
  const policy = retryPolicyOf(entry, entry.kind.flow.step(definition, job.key));
  const attempt = step.attempt + 1;
  const text = errorText(error);
  const fields = { runId: run.id, kind: run.kind, step: job.key, attempt, err: error };
  if (!(error instanceof PermanentStepError) && attempt < policy.attempts) {
    const dueAt = new Date(Date.now() + Math.max(0, policy.delayMs(attempt)));
    await updateStep(trx, run.id, job.key, {
      status: "scheduled",
      attempt,
      dueAt,
      startedAt,
      finishedAt: new Date(),
      error: text,
    });
    if (!(await carrier.carry(trx, job.key, dueAt)))
      await enqueueStep(core, trx, entry, run.id, job.key, dueAt);
    core.log.warn({ ...fields, retryAt: dueAt }, "run step failed; it will be retried");
    return;
  }
  const failed = await updateStep(trx, run.id, job.key, {
    status: "failed",
    attempt,
    startedAt,
    finishedAt: new Date(),
    error: text,
  });
  core.log.warn(fields, "run step failed on its last attempt");
  await endRun(core, trx, entry, run, "failed", { error: text, failedStep: failed });
}

/** Runs one step of the job; answers the next step when the job carries the run on to it. */
