/** One run of a taken job on this worker (queue.ts): its state, its handler's JobContext, its outcome. */
import type { JobContext } from "./contract";
import { jobEndPart, markDone, rekeyJob } from "./job-moves";
import type { TakenJob } from "./jobs.repository";
import { type OutcomeDeps, recordOutcome } from "./outcome";

/** A handler as the queue calls it: a recurring job's answers its next payload. */
export type Handler = (job: JobContext<unknown>) => Promise<unknown>;

export interface Registration {
  name: string;
  handler: Handler;
  concurrency: number;
  maxAttempts: number;
  running: number;
  /** The last look took as many jobs of this name as it asked for: more may be due. */
  mayHaveMore: boolean;
  /** A recurring job: its period and first payload; the handler answers the next payload. */
  recurring?: { everyMs: number; initial: unknown };
  /** Yields to requests while the process is busy (RegisterOptions.background). */
  background: boolean;
}

export interface ActiveRun {
  job: TakenJob;
  controller: AbortController;
  /** The handler returned; its outcome is being written. */
  finishing: boolean;
  /** Handed back by stop(): whatever the handler does now is not recorded. */
  released: boolean;
  /** Another worker took the job over (our lease ran out). */
  lost: boolean;
  /**
   * The handler ended this run itself, in its last transaction (finishIn, carryOn with a run
   * time): nothing is recorded when it returns, and the lease is no longer extended.
   */
  ended: boolean;
  done: Promise<void>;
}

/** What a run needs of its queue: where to write, and a wake-up for the time it queues its job for. */
export interface RunDeps extends OutcomeDeps {
  wakeAt(at: Date | null | undefined): void;
}

export async function executeRun(deps: RunDeps, reg: Registration, run: ActiveRun): Promise<void> {
  const { db, log, instanceId, wakeAt } = deps;
  const { job } = run;
  const fields = { jobId: job.id, job: job.name, attempt: job.attempt };
  let failure: { error: unknown } | null = null;
  let answer: unknown;
  try {
    answer = await reg.handler({
      id: job.id,
      name: job.name,
      payload: job.payload,
      attempt: job.attempt,
      signal: run.controller.signal,
      carryOn: async (target, payload, key, runAt) => {
        const carried = await rekeyJob(target, job, instanceId, payload, key, runAt);
        if (carried && runAt) {
          run.ended = true;
          wakeAt(runAt);
        }
        return carried;
      },
      finishIn: async (target) => {
        const finished = await markDone(target, job, instanceId);
        if (finished) run.ended = true;
        return finished;
      },
      endQuery: (next) => ({
        ...jobEndPart(db, job, instanceId, next),
        ended: () => {
          run.ended = true;
          wakeAt(next?.runAt);
        },
      }),
    });
  } catch (error) {
    failure = { error };
  }
  run.finishing = true;
  // Ended in the handler's last transaction, which committed since the handler returned. (A
  // handler that throws after a rollback is recorded below, fenced on the lease as ever.)
  if (run.ended && !failure) return;
  if (run.released || run.lost) {
    log.warn(fields, "job run ended after its lease was given up; its outcome is not recorded");
    return;
  }
  await recordOutcome(deps, job, reg.recurring, failure, answer);
}
