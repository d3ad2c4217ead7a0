/**
 * The job of a run's step (`run.<kind>`, payload { runId, key }). Jobs run at least once, so
 * a job first locks the run and checks that its step is still the one to run: a job delivered
 * twice, or late after an exit, finds the step done or the run ended and does nothing. The
 * executor's writes, the step's record and the next step's job commit in one transaction, so a
 * crash before the commit leaves the step to run again from scratch, and one after it leaves
 * nothing to do: a step's database effects happen once.
 *
 * An executor that throws fails the attempt: the rollback undoes its writes, then a second
 * transaction records the error on the step and queues the next attempt after the kind's
 * backoff, or fails the run when the attempts are spent.
 */
import type { Transaction } from "kysely";
import type { Database } from "../db";
import type { JobContext } from "../jobs";
import type { Run, RunStep, StepContextBase, StepDefinition, StepOutcome } from "./contract";
import {
  type EngineCore,
  errorText,
  type KindEntry,
  type NormalExecutor,
  retryPolicyOf,
  STEP_JOB_ATTEMPTS,
  type StepJob,
  stepJobKey,
} from "./core";
import { PermanentStepError, StepAttemptError } from "./errors";
import { lockRun, updateStep } from "./runs.repository";
import { completeStep, endRun, enqueueStep, parkStep } from "./transitions";

type Trx = Transaction<Database>;

/** The step's run if the step is still the one to run, else undefined (the job has nothing to do). */
async function lockRunnable(trx: Trx, job: StepJob): Promise<{ run: Run; step: RunStep } | undefined> {
  const locked = await lockRun(trx, job.runId, job.key);
  if (!locked?.step) return undefined;
  const { run, step } = locked;
  if (run.status !== "running" && run.status !== "waiting") return undefined;
  if (run.cursor !== job.key) return undefined;
  if (step.status !== "scheduled" && step.status !== "waiting") return undefined;
  return { run, step };
}

type Attempt =
  | { kind: "over" }
  | { kind: "prepare"; executor: NormalExecutor; context: StepContextBase<StepDefinition, unknown> };

function checkOutcome(outcome: StepOutcome): void {
  if (outcome.awaitEvent && (outcome.nextAt || outcome.exit)) {
    throw new PermanentStepError("A step that awaits an event cannot also set nextAt or exit");
  }
  for (const at of [outcome.nextAt, outcome.awaitEvent?.timeoutAt]) {
    if (at !== undefined && (!(at instanceof Date) || Number.isNaN(at.getTime()))) {
      throw new PermanentStepError("A step's nextAt and timeoutAt must be valid dates");
    }
  }
}

/** One try at the step in `trx`; answers 'prepare' when its executor needs its outside work first. */
async function attemptStep(
  core: EngineCore,
  entry: KindEntry,
  trx: Trx,
  job: JobContext<StepJob>,
  startedAt: Date,
  prepared: { value: unknown } | undefined,
): Promise<Attempt> {
  const runnable = await lockRunnable(trx, job.payload);
  if (!runnable) return { kind: "over" };
  const { run, step } = runnable;
  const { key } = job.payload;
  const definition = await core.definitions.get(trx, run.definitionHash);
  if (step.status === "waiting") {
    // The awaited event did not come in time: the step is done with the timeout as its output.
    const output = { resumedBy: "timeout" };
    await completeStep(core, trx, entry, run, definition, key, {
      output,
      attempt: step.attempt,
      startedAt: step.startedAt,
    });
    return { kind: "over" };
  }
  const exitReason = await entry.kind.exitCheck?.(trx, run, key);
  if (exitReason) {
    await endRun(core, trx, entry, run, "exited", { exitReason });
    return { kind: "over" };
  }
  const stepDefinition = entry.kind.flow.step(definition, key);
  if (!stepDefinition)
    throw new StepAttemptError(new PermanentStepError(`Step "${key}" is not in the run's definition`));
  const executor = entry.executors.get(stepDefinition.type);
  if (!executor) {
    throw new StepAttemptError(
      new PermanentStepError(`No executor for steps of type "${stepDefinition.type}"`),
    );
  }
  const context: StepContextBase<StepDefinition, unknown> = {
    run,
    key,
    step: stepDefinition,
    attempt: step.attempt + 1,
    idempotencyKey: stepJobKey(run.id, key),
    signal: job.signal,
  };
  if (executor.prepare && !prepared) return { kind: "prepare", executor, context };
  let outcome: StepOutcome;
  try {
    outcome = (await executor.run({ ...context, trx, prepared: prepared?.value })) ?? {};
    checkOutcome(outcome);
  } catch (error) {
    throw new StepAttemptError(error);
  }
  const attempt = { attempt: context.attempt, startedAt, input: outcome.input };
  if (outcome.awaitEvent) {
    await parkStep(core, trx, entry, run, key, outcome.awaitEvent, attempt);
  } else {
    await completeStep(core, trx, entry, run, definition, key, {
      ...attempt,
      output: outcome.output,
      nextAt: outcome.nextAt,
      exit: outcome.exit,
    });
  }
  return { kind: "over" };
}

/**
 * Records a failed attempt of the step: retried after the backoff while attempts remain (a new
 * job of the same key), else the step and its run fail and the kind's onRunFailed is called.
 */
async function recordFailure(
  core: EngineCore,
  entry: KindEntry,
  job: StepJob,
  error: unknown,
  startedAt: Date,
): Promise<void> {
  await core.db.transaction().execute(async (trx) => {
    const runnable = await lockRunnable(trx, job);
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
  });
}

/** The handler of `run.<kind>` jobs. */
export function stepJobHandler(core: EngineCore, entry: KindEntry) {
  return async (job: JobContext<StepJob>): Promise<void> => {
    const startedAt = new Date();
    if (job.attempt >= STEP_JOB_ATTEMPTS) {
      // Every earlier take of this job died or hit a database failure: give up on the step.
      const previous = (await core.jobs.get(job.id))?.lastError ?? "its worker stopped";
      const error = new PermanentStepError(
        `The step was interrupted ${job.attempt - 1} times (its worker stopped or the database failed): ${previous}`.slice(
          0,
          1000,
        ),
      );
      await recordFailure(core, entry, job.payload, error, startedAt);
      return;
    }
    let prepared: { value: unknown } | undefined;
    try {
      for (;;) {
        const attempt = await core.db
          .transaction()
          .execute((trx) => attemptStep(core, entry, trx, job, startedAt, prepared));
        if (attempt.kind === "over") return;
        // Outside work runs outside the transaction: no row lock or connection held meanwhile.
        try {
          prepared = { value: await attempt.executor.prepare?.(attempt.context) };
        } catch (error) {
          throw new StepAttemptError(error);
        }
      }
    } catch (error) {
      // Stopping: the queue hands the job back, and the attempt does not count.
      if (!(error instanceof StepAttemptError) || job.signal.aborted) throw error;
      await recordFailure(core, entry, job.payload, error.error, startedAt);
    }
  };
}
