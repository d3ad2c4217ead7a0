// The job carrying a run from step to step (StepCarrier) and its settling before each commit.
import type { Transaction } from "kysely";
import type { Database } from "../db";
import type { JobContext } from "../jobs";
import { type EngineCore, type KindEntry, type StepJob, stepJobKey } from "./core";
import { type Carrier, enqueueStep } from "./step-jobs";

type Trx = Transaction<Database>;

/**
 * The job carrying a run from step to step: when the step done names a next one due now, the
 * job becomes that step's in the same transaction (JobContext.carryOn) and runs it next, instead
 * of queueing a job for it, marking itself done and waiting for the queue to take the new one.
 * A crash from that commit on runs the job again from the next step. A next step due later (a
 * delay, a retry, an event's timeout) gets the job too, queued again for its time; and a job
 * with no step left is marked done in the transaction of its last one (JobContext.finishIn).
 */
export interface StepCarrier extends Carrier {
  /** The step the job took on in the transaction that just committed. */
  next: string | null;
  /** When that step is due later: the job is queued again for then. */
  at: Date | undefined;
  /** The job was ended (done, or queued again) by a move's own statement (endWith). */
  ended: boolean;
}

export function stepCarrier(job: JobContext<StepJob>, runId: string): StepCarrier {
  return {
    next: null,
    at: undefined,
    ended: false,
    endWith(key, at) {
      // Stopping: the transaction is to be undone; the queue hands the job back.
      if (job.signal.aborted) return undefined;
      const end = job.endQuery(
        key === null
          ? undefined
          : { payload: { runId, key }, key: stepJobKey(runId, key), runAt: at ?? new Date() },
      );
      return {
        ...end,
        ended: () => {
          this.ended = true;
          end.ended();
        },
      };
    },
    async carry(_trx, key, at) {
      // Stopping: the next step gets a job of its own instead.
      if (job.signal.aborted) return false;
      // Written once, before the commit (settleCarry): a batch may run it in this very transaction.
      this.next = key;
      this.at = at;
      return true;
    },
  };
}

/**
 * Before the commit: the job becomes the job of the step it goes on to (now, or queued again
 * for its time); when it is no longer this worker's (its lease was lost), that step gets a job
 * of its own instead. A job with no step left is done with this transaction.
 */
export async function settleCarry(
  core: EngineCore,
  entry: KindEntry,
  trx: Trx,
  job: JobContext<StepJob>,
  carrier: StepCarrier,
  runId: string,
): Promise<void> {
  const { next: key, at } = carrier;
  // Due later: this run of the job ends with the transaction, and nothing is left to run now.
  if (at) carrier.next = null;
  if (carrier.ended) return;
  if (!key) {
    await job.finishIn(trx);
    return;
  }
  if (await job.carryOn(trx, { runId, key }, stepJobKey(runId, key), at)) return;
  carrier.next = null;
  await enqueueStep(core, trx, entry, runId, key, at ?? new Date());
}
