/**
 * What the queue writes when a job's handler returns or throws (queue.ts): done; queued again
 * after the backoff, or failed on its last attempt; a recurring job queued for its next time.
 * Every write is fenced on the run's lease (jobs.repository.ts): a run that lost its job to
 * another worker records nothing.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db";
import type { JobLogger } from "./contract";
import { markDone, markFailed, markRecurring } from "./job-moves";
import type { TakenJob } from "./jobs.repository";

const ERROR_TEXT_MAX = 8000;

export function errorText(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return text.slice(0, ERROR_TEXT_MAX);
}

export interface OutcomeDeps {
  db: Kysely<Database>;
  log: JobLogger;
  instanceId: string;
  delayFor(attempt: number): number;
}

/** Records how a run of `job` ended: `failure` when its handler threw, else `answer`. */
export async function recordOutcome(
  { db, log, instanceId, delayFor }: OutcomeDeps,
  job: TakenJob,
  recurring: { everyMs: number } | undefined,
  failure: { error: unknown } | null,
  answer: unknown,
): Promise<void> {
  const fields = { jobId: job.id, job: job.name, attempt: job.attempt };
  try {
    if (recurring) {
      if (failure)
        log.error({ ...fields, err: failure.error }, "recurring job failed; it runs at its next time");
      const next = failure ? job.payload : answer;
      const error = failure ? errorText(failure.error) : null;
      await markRecurring(db, job, instanceId, recurring.everyMs, next, error);
      return;
    }
    if (!failure) {
      if (!(await markDone(db, job, instanceId))) {
        log.warn(fields, "job finished after another worker took it over; its outcome is not recorded");
      }
      return;
    }
    const outcome = await markFailed(db, job, instanceId, errorText(failure.error), delayFor(job.attempt));
    if (!outcome) {
      log.warn({ ...fields, err: failure.error }, "job failed after another worker took it over");
    } else if (outcome.state === "failed") {
      log.error({ ...fields, err: failure.error }, "job failed on its last attempt");
    } else {
      log.warn({ ...fields, err: failure.error, retryAt: outcome.runAt }, "job failed; it will be retried");
    }
  } catch (err) {
    log.error({ ...fields, err }, "could not record a job's outcome; it runs again when its lease expires");
  }
}
