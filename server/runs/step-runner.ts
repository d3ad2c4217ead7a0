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
 * backoff, or fails the run when the attempts are spent (step-attempts.ts).
 *
 * The job goes on to the steps due after its own (docs/runs.md, "One job, few round trips"):
 * in the same transaction (continueBatch, its moves written at once: batch-moves.ts), then in the next one as the job of that step
 * (settleCarry, JobContext.carryOn); a step due later gets the job too, queued again for then,
 * and the job is done in the transaction of its last step (JobContext.finishIn).
 */
import type { Transaction } from "kysely";
import type { Database } from "../db";
import type { JobContext } from "../jobs";
import { BatchMoves } from "./batch-moves";
import type { Run, StepContextBase, StepDefinition, StepOutcome } from "./contract";
import {
  type EngineCore,
  type KindEntry,
  type NormalExecutor,
  STEP_JOB_ATTEMPTS,
  type StepJob,
  stepJobKey,
} from "./core";
import { PermanentStepError, StepAttemptError } from "./errors";
import { lockRunnable, recordFailure, recordFailureIn } from "./step-attempts";
import { type StepCarrier, settleCarry, stepCarrier } from "./step-carrier";
import { completeStep, endRun, parkStep } from "./transitions";

type Trx = Transaction<Database>;

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
  target: StepJob,
  carrier: StepCarrier,
  startedAt: Date,
  prepared: { value: unknown } | undefined,
  failed: BatchFailure | undefined,
): Promise<Attempt> {
  const runnable = await lockRunnable(trx, entry, target, true);
  if (!runnable) return { kind: "over" };
  const { run, step } = runnable;
  // The moves of the steps done in this transaction, written at once when they end.
  const moves = new BatchMoves(core, entry, trx, runnable.reached);
  const { key } = target;
  const definition = await core.definitions.get(trx, run.definitionHash);
  // The run was read back: it committed, and its definition with it.
  core.definitions.markStored(run.definitionHash);
  /** The step is done: the steps due after it in this transaction, then the job's next step. */
  const over = async (moved: Run): Promise<Attempt> => {
    await continueBatch(core, entry, trx, job, carrier, moves, moved, definition, failed);
    await moves.flush();
    await settleCarry(core, entry, trx, job, carrier, moved.id);
    return { kind: "over" };
  };
  if (step.status === "waiting") {
    // The awaited event did not come in time: the step is done with the timeout as its output.
    const output = { resumedBy: "timeout" };
    return over(
      await completeStep(core, trx, entry, run, definition, key, {
        output,
        attempt: step.attempt,
        startedAt: step.startedAt,
        carrier,
        moves,
      }),
    );
  }
  const exitReason = await entry.kind.exitCheck?.(trx, run, key);
  if (exitReason) {
    await endRun(core, trx, entry, run, "exited", { exitReason });
    await settleCarry(core, entry, trx, job, carrier, run.id);
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
  return over(
    await recordOutcome(core, entry, trx, run, definition, key, outcome, context.attempt, startedAt, {
      carrier,
      moves,
    }),
  );
}

/**
 * A step of a batch that failed: the batch runs again without it, and records its failure.
 * `index` 0: no batch at all (the batch failed again and again, its flow taking other steps
 * each time): the job's own step alone, the next one in a transaction of its own.
 */
interface BatchFailure {
  /** Its place in the batch (1: the first after the job's own step). */
  index: number;
  key: string;
  error: unknown;
  startedAt: Date;
}

/** Thrown out of a batch's transaction to undo it all (continueBatch). */
class BatchStepFailed extends Error {
  constructor(readonly failure: BatchFailure) {
    super(`step "${failure.key}" of a batch failed`);
  }
}

/** A step's outcome recorded: parked on its event, or done and the run moved on. */
function recordOutcome(
  core: EngineCore,
  entry: KindEntry,
  trx: Trx,
  run: Run,
  definition: unknown,
  key: string,
  outcome: StepOutcome,
  attemptNumber: number,
  startedAt: Date,
  batch: { carrier: StepCarrier; moves: BatchMoves },
): Promise<Run> {
  const attempt = { attempt: attemptNumber, startedAt, input: outcome.input };
  const { carrier, moves } = batch;
  if (outcome.awaitEvent) return parkStep(core, trx, entry, run, key, outcome.awaitEvent, attempt, carrier);
  return completeStep(core, trx, entry, run, definition, key, {
    ...attempt,
    output: outcome.output,
    nextAt: outcome.nextAt,
    exit: outcome.exit,
    carrier,
    moves,
  });
}

/** Steps of one run done in one transaction at most: the first, and the ones due after it. */
export const BATCH_STEPS = 10;
/** Times a job runs its batch again after a step of it failed, before it runs its steps alone. */
const BATCH_REDOS = 3;

/**
 * Goes on, in the same transaction, to the steps due now after the one just done: a run's
 * condition, its delay's scheduling, its record actions commit together, with one lock of the
 * run and one commit instead of one each. Each step still gets the kind's exit check and its own
 * record. A step with outside work (`prepare`) or that cannot run stops the batch (it runs in a
 * transaction of its own).
 *
 * A step that throws fails alone, without a savepoint per step (a statement each, for what is
 * rare): its throw undoes the whole transaction (BatchStepFailed), and the job runs it again
 * (runStep) up to that step, whose failed attempt it then records in its place (retry or failed
 * run), without running it twice; the steps before it stay done.
 */
async function continueBatch(
  core: EngineCore,
  entry: KindEntry,
  trx: Trx,
  job: JobContext<StepJob>,
  carrier: StepCarrier,
  moves: BatchMoves,
  moved: Run,
  definition: unknown,
  failed: BatchFailure | undefined,
): Promise<void> {
  let run = moved;
  const most = failed?.index === 0 ? 1 : BATCH_STEPS;
  for (let n = 1; n < most && carrier.next && !carrier.at && !job.signal.aborted; n++) {
    const key = carrier.next;
    if (run.status !== "running" || run.cursor !== key) return;
    const stepDefinition = entry.kind.flow.step(definition, key);
    const executor = stepDefinition && entry.executors.get(stepDefinition.type);
    if (!stepDefinition || !executor || executor.prepare) return;
    const exitReason = await entry.kind.exitCheck?.(trx, run, key);
    carrier.next = null;
    if (exitReason) {
      await endRun(core, trx, entry, run, "exited", { exitReason });
      return;
    }
    if (failed?.index === n && failed.key === key) {
      await recordFailureIn(
        core,
        entry,
        trx,
        { runId: run.id, key },
        failed.error,
        failed.startedAt,
        carrier,
      );
      return;
    }
    const startedAt = new Date();
    let outcome: StepOutcome;
    try {
      const context = { run, key, step: stepDefinition, attempt: 1, idempotencyKey: stepJobKey(run.id, key) };
      outcome = (await executor.run({ ...context, signal: job.signal, trx, prepared: undefined })) ?? {};
      checkOutcome(outcome);
    } catch (error) {
      // Stopping: the whole transaction is undone and the job handed back, as for a first step.
      if (job.signal.aborted) throw error;
      throw new BatchStepFailed({ index: n, key, error, startedAt });
    }
    run = await recordOutcome(core, entry, trx, run, definition, key, outcome, 1, startedAt, {
      carrier,
      moves,
    });
  }
}

async function runStep(
  core: EngineCore,
  entry: KindEntry,
  job: JobContext<StepJob>,
  target: StepJob,
): Promise<string | null> {
  const startedAt = new Date();
  const carrier = stepCarrier(job, target.runId);
  let prepared: { value: unknown } | undefined;
  let failed: BatchFailure | undefined;
  let redone = 0;
  try {
    for (;;) {
      carrier.next = null;
      carrier.at = undefined;
      carrier.ended = false;
      let attempt: Attempt;
      try {
        attempt = await core.db
          .transaction()
          .execute((trx) => attemptStep(core, entry, trx, job, target, carrier, startedAt, prepared, failed));
      } catch (error) {
        if (!(error instanceof BatchStepFailed)) throw error;
        // Undone: again, up to the step that failed, whose failure is recorded in its place.
        failed = ++redone > BATCH_REDOS ? { ...error.failure, index: 0 } : error.failure;
        continue;
      }
      if (attempt.kind === "over") return carrier.next;
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
    await recordFailure(core, entry, job, target, error.error, startedAt);
    return null;
  }
}

/** The handler of `run.<kind>` jobs. */
export function stepJobHandler(core: EngineCore, entry: KindEntry) {
  return async (job: JobContext<StepJob>): Promise<void> => {
    if (job.attempt >= STEP_JOB_ATTEMPTS) {
      // Every earlier take of this job died or hit a database failure: give up on the step.
      const previous = (await core.jobs.get(job.id))?.lastError ?? "its worker stopped";
      const error = new PermanentStepError(
        `The step was interrupted ${job.attempt - 1} times (its worker stopped or the database failed): ${previous}`.slice(
          0,
          1000,
        ),
      );
      await recordFailure(core, entry, job, job.payload, error, new Date());
      return;
    }
    let target = job.payload;
    for (;;) {
      const next = await runStep(core, entry, job, target);
      if (next === null) return;
      // The job is the next step's now: handing it back (throwing) keeps that step to run.
      if (job.signal.aborted) throw new Error("the job queue stopped between two steps of a run");
      target = { runId: target.runId, key: next };
    }
  };
}
