/**
 * How a run moves, inside the transaction of whoever moves it (a step's job, start, an exit,
 * an event, a cancel), with the run's row locked: a step is scheduled with its job, done, parked
 * on an event, and a run ends. Every write of one move commits together, so a run is never
 * half-moved: its next step's job exists exactly when the run says the step is next.
 */
import type { Transaction } from "kysely";
import type { Database } from "../db";
import { type BatchMoves, flushMoves } from "./batch-moves";
import { ACTIVE_STATUSES, type Run, type RunStatus, type RunStep, type StepOutcome } from "./contract";
import { type EngineCore, type KindEntry, stepJobKey } from "./core";
import { getRun } from "./runs.reads";
import {
  advanceRun,
  deleteQueuedJobs,
  getStep,
  type JobEnd,
  type StepChange,
  skipPendingStep,
  updateRun,
  updateStep,
} from "./runs.repository";
import { type Carrier, enqueueStep } from "./step-jobs";

type Trx = Transaction<Database>;

/** The run as it is now: it ended earlier in this transaction, and this move no longer applies. */
async function current(trx: Trx, run: Run): Promise<Run> {
  return (await getRun(trx, run.id)) ?? run;
}

export interface Completion {
  output: unknown;
  input?: unknown;
  attempt: number;
  startedAt: Date | null;
  nextAt?: Date;
  exit?: string;
  /** The job that may run the next step itself. */
  carrier?: Carrier;
  /** The batch this step is part of: its move is kept there, written with the batch's (batch-moves.ts). */
  moves?: BatchMoves;
}

/** Marks the step at the cursor done, and moves the run to the step its flow names next. */
export async function completeStep(
  core: EngineCore,
  trx: Trx,
  entry: KindEntry,
  run: Run,
  definition: unknown,
  key: string,
  done: Completion,
): Promise<Run> {
  const outputs = done.output === undefined ? run.outputs : { ...run.outputs, [key]: done.output };
  const next = done.exit ? null : entry.kind.flow.next(definition, key, done.output);
  const { moves } = done;
  const record = { attempt: done.attempt, startedAt: done.startedAt, input: done.input, output: done.output };
  if (next !== null) {
    const now = new Date();
    const dueAt = done.nextAt && done.nextAt > now ? done.nextAt : now;
    // A key the definition lacks is scheduled all the same: running it fails the run visibly there.
    const type = entry.kind.flow.step(definition, next)?.type ?? "unknown";
    const to = { key: next, type, dueAt, later: dueAt > now };
    if (moves?.keeps(next)) return moves.advance(run, key, record, outputs, to, done.carrier);
    // Written as before, after the batch's moves: a flow come back to a step fails the run there.
    await flushMoves(trx);
    return advance(core, trx, entry, run, key, done, to, outputs);
  }
  // The last step done, its run finished and its job done in one statement.
  if (!done.exit && moves?.keeps(null)) return moves.finish(run, key, record, outputs, done.carrier);
  const change = {
    status: "done" as const,
    attempt: done.attempt,
    startedAt: done.startedAt,
    finishedAt: new Date(),
    input: done.input,
    output: done.output,
  };
  if (!done.exit) {
    const job = done.carrier?.endWith?.(null);
    return endRun(core, trx, entry, run, "finished", { outputs, doneStep: { key, change }, job });
  }
  await flushMoves(trx);
  await updateStep(trx, run.id, key, change);
  return endRun(core, trx, entry, run, "exited", { exitReason: done.exit, outputs });
}

/**
 * The usual move out of a batch: the step done and the next one scheduled in one statement
 * (advanceRun), then its job (or the carrier).
 */
async function advance(
  core: EngineCore,
  trx: Trx,
  entry: KindEntry,
  run: Run,
  key: string,
  done: Completion,
  next: { key: string; type: string; dueAt: Date; later: boolean },
  outputs: Record<string, unknown>,
): Promise<Run> {
  const { dueAt, later } = next;
  // Due later: the job is queued again for then in the move's own statement, when it can be.
  const job = later ? done.carrier?.endWith?.(next.key, dueAt) : undefined;
  let jobEnded = false;
  const advanced = await advanceRun(trx, {
    runId: run.id,
    context: run.context,
    job: job && {
      ...job,
      ended() {
        jobEnded = true;
        job.ended();
      },
    },
    done: { key, attempt: done.attempt, startedAt: done.startedAt, input: done.input, output: done.output },
    run: { status: later ? "waiting" : "running", outputs },
    next: { key: next.key, type: next.type, dueAt },
  });
  if (!advanced) return current(trx, run);
  if (!advanced.inserted) {
    const error = `The flow came back to step "${next.key}": a run reaches each step once`;
    const after = (await getStep(trx, run.id, key)) ?? null;
    return endRun(core, trx, entry, advanced.run, "failed", { error, failedStep: after });
  }
  if (jobEnded) return advanced.run;
  if (!(await done.carrier?.carry(trx, next.key, later ? dueAt : undefined))) {
    await enqueueStep(core, trx, entry, run.id, next.key, dueAt);
  }
  return advanced.run;
}

/** Leaves the step at the cursor open until its event or its timeout (its job, due then). */
export async function parkStep(
  core: EngineCore,
  trx: Trx,
  entry: KindEntry,
  run: Run,
  key: string,
  wait: NonNullable<StepOutcome["awaitEvent"]>,
  attempt: { attempt: number; startedAt: Date; input?: unknown },
  carrier?: Carrier,
): Promise<Run> {
  await flushMoves(trx);
  const parked = await updateRun(trx, run, { status: "waiting", awaiting: wait.event }, ACTIVE_STATUSES);
  if (!parked) return current(trx, run);
  await updateStep(trx, run.id, key, {
    status: "waiting",
    attempt: attempt.attempt,
    startedAt: attempt.startedAt,
    dueAt: wait.timeoutAt,
    input: attempt.input,
  });
  if (!(await carrier?.carry(trx, key, wait.timeoutAt)))
    await enqueueStep(core, trx, entry, run.id, key, wait.timeoutAt);
  return parked;
}

export interface Ending {
  exitReason?: string;
  error?: string;
  outputs?: Record<string, unknown>;
  /** The step a failed run failed on (handed to onRunFailed). */
  failedStep?: RunStep | null;
  /** A step's change written with the run's end, in its statement (the last step done). */
  doneStep?: { key: string; change: StepChange };
  /** The job's own end, written in the same statement when the run ends there. */
  job?: JobEnd;
}

/**
 * Ends a run. A step it had not run yet is skipped and its queued job removed; a failed run
 * keeps its cursor on the failed step (retryFromFailed starts there). The kind's hooks run in
 * the same transaction.
 */
export async function endRun(
  core: EngineCore,
  trx: Trx,
  entry: KindEntry,
  run: Run,
  status: Exclude<RunStatus, "running" | "waiting">,
  ending: Ending = {},
): Promise<Run> {
  await flushMoves(trx);
  if (status === "exited" || status === "cancelled") {
    await skipPendingStep(trx, run.id, run.cursor);
    if (run.cursor !== null) await deleteQueuedJobs(trx, entry.jobName, [stepJobKey(run.id, run.cursor)]);
  }
  const ended = await updateRun(
    trx,
    run,
    {
      status,
      cursor: status === "finished" ? null : run.cursor,
      awaiting: null,
      finishedAt: new Date(),
      ...(ending.outputs ? { outputs: ending.outputs } : {}),
      ...(ending.exitReason !== undefined ? { exitReason: ending.exitReason } : {}),
      ...(ending.error !== undefined ? { error: ending.error } : {}),
    },
    // A failed run may still be cancelled (it will not be run again).
    status === "cancelled" ? [...ACTIVE_STATUSES, "failed"] : ACTIVE_STATUSES,
    { step: ending.doneStep, job: ending.job },
  );
  if (!ended) return current(trx, run);
  if (status === "failed") {
    core.log.error({ runId: run.id, kind: run.kind, owner: run.ownerKey, error: ending.error }, "run failed");
    if (ending.failedStep) await entry.kind.onRunFailed?.(trx, ended, ending.failedStep);
  }
  await entry.kind.onRunEnded?.(trx, ended);
  return ended;
}
