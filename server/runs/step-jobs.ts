/**
 * A run's step as a job of the queue: its job queued in a move's transaction (enqueueStep), and
 * the job that carries a run from step to step (Carrier; step-carrier.ts). Apart from the moves
 * (transitions.ts) and the batch's moves (batch-moves.ts), which both use it.
 */
import type { Transaction } from "kysely";
import type { Database } from "../db";
import { type EngineCore, type KindEntry, STEP_JOB_ATTEMPTS, type StepJob, stepJobKey } from "./core";
import type { JobEnd } from "./runs.repository";

type Trx = Transaction<Database>;

/** Queues the job of a run's step, in the transaction (it exists only if the move commits). */
export async function enqueueStep(
  core: EngineCore,
  trx: Trx,
  entry: KindEntry,
  runId: string,
  key: string,
  at: Date,
) {
  await core.jobs.enqueue<StepJob>(
    entry.jobName,
    { runId, key },
    { db: trx, key: stepJobKey(runId, key), runAt: at, maxAttempts: STEP_JOB_ATTEMPTS },
  );
}

/**
 * The job of the step just done, which becomes the job of the run's next step (step-runner.ts):
 * it goes on to it itself when it is due now, or is queued again for its time (a delay); no
 * other job is queued for it.
 */
export interface Carrier {
  /**
   * Makes the running job the job of `key`, due now or at `at`, in the transaction; false:
   * queue a job instead.
   */
  carry(trx: Trx, key: string, at?: Date): Promise<boolean>;
  /**
   * The job's own update, to run in the move's statement (JobContext.endQuery): queued again as
   * the job of `key` due at `at`, or done when `key` is null (the run ends). Undefined: none
   * (carry or settle it after the move instead).
   */
  endWith?(key: string | null, at?: Date): JobEnd | undefined;
}
