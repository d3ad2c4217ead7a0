/**
 * The job queue's public contract: what a handler receives, what callers pass, and what
 * `createJobQueue` answers (queue.ts implements it; jobs.repository.ts holds the SQL).
 */
import type { Kysely, RawBuilder, Transaction, UpdateQueryBuilder } from "kysely";
import type { Database } from "../db";
import type { Inserts } from "../db/insert-rows";
import type { Slots } from "../db/statements";

export type JobState = "queued" | "running" | "done" | "failed";

/** A job as stored, for diagnostics and tests. */
export interface JobRecord {
  id: string;
  name: string;
  payload: unknown;
  state: JobState;
  /** Times the job has been taken, the current run included. */
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lockedBy: string | null;
  lockedUntil: Date | null;
  lastError: string | null;
  key: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

/** What the queue needs of a logger (pino's, Fastify's `app.log`). */
export interface JobLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** One run of a job, as its handler sees it. */
export interface JobContext<P> {
  id: string;
  name: string;
  payload: P;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  /** Aborted when the queue stops before the handler ends, or when the lease is lost. */
  signal: AbortSignal;
  /**
   * Turns this running job into the job of `payload` and `key`, in `db`'s transaction: from its
   * commit, a run taken again after a crash gets them. A handler that goes on to that work
   * itself saves queueing a job for it (the run engine's next step). With `runAt` the handler
   * hands that work to later instead: this run of the job ends, and the job is queued again
   * for `runAt` with its attempts back to none (a run's delay), so no other job is queued and
   * the queue records nothing after the handler returns. False when the job is no longer this
   * worker's, or another pending job holds `key` (enqueue then: it answers that job). The
   * handler's own `payload` stays as it was.
   */
  carryOn(
    db: Kysely<Database> | Transaction<Database>,
    payload: P,
    key: string | null,
    runAt?: Date,
  ): Promise<boolean>;
  /**
   * Ends this run of the job as done in `db`'s transaction, the one that commits its work: one
   * write and one commit fewer than the queue's own after the handler returns, which then
   * records nothing. The handler returns right after that commit. False when the job is no
   * longer this worker's.
   */
  finishIn(db: Kysely<Database> | Transaction<Database>): Promise<boolean>;
  /**
   * finishIn, or carryOn with a run time (`next`), as a part of a statement of the handler's
   * own, saving its round trip: `query` is the job's update (a CTE of that statement), which
   * answers the job's id when it matched; call `ended()` when it did (then, as after finishIn,
   * the queue records nothing when the handler returns).
   */
  endQuery(next?: { payload: P; key: string | null; runAt: Date }): JobEndPart & { ended(): void };
}

/** An update of a job's row answering its id (JobContext.endQuery), to run inside another statement. */
export type JobEndQuery = UpdateQueryBuilder<Database, "jobs", "jobs", { id: string }>;

/**
 * A job's update as a part of another statement: `query` builds it from its values by name
 * (server/db/statements.ts Slots: slots where that statement is kept by shape, the values
 * themselves otherwise); `shape` names what it builds, the same for the same shape.
 */
export interface JobEndPart {
  shape: string;
  values: Record<string, unknown>;
  query(v: Slots): JobEndQuery;
}

/**
 * Runs one job. Jobs run at least once: a crash after the work and before the outcome is
 * recorded runs it again, so a handler must be idempotent. Throwing schedules a retry.
 */
export type JobHandler<P> = (job: JobContext<P>) => Promise<void>;

export interface RegisterOptions {
  /** Runs of this name at once in this process (default 1). */
  concurrency?: number;
  /** Default attempts for jobs of this name enqueued here (default 5). */
  maxAttempts?: number;
  /**
   * Bulk work that yields to requests (webhook deliveries): while the process is busy
   * (JobQueueOptions.busy), one job of the name runs at a time and one starts per poll at
   * most; the rest wait, due, until the load passes, and then run at `concurrency`.
   * A burst of public answers is taken first and its deliveries follow seconds later.
   */
  background?: boolean;
}

export interface EnqueueOptions {
  /**
   * Singleton key: while a job of this name and key is queued, enqueue answers its id (the
   * new payload is dropped). While one is running, a new job is queued and the running one
   * will not be retried (the newer job supersedes it).
   */
  key?: string;
  /** Not before this time (default: now). */
  runAt?: Date;
  maxAttempts?: number;
  /** A transaction to enqueue in: the job exists only if it commits. */
  db?: Kysely<Database> | Transaction<Database>;
}

export interface JobQueueOptions {
  db: Kysely<Database>;
  log: JobLogger;
  /** Names this worker in `locked_by`; unique per running queue (default host:pid:random). */
  instanceId?: string;
  /** How often to look for due jobs besides local wake-ups (default 1 s). */
  pollMs?: number;
  /** How long a run is ours without a heartbeat (default 30 s); heartbeats every third of it. */
  leaseMs?: number;
  /** How long stop() waits for running handlers before aborting them (default 10 s). */
  stopTimeoutMs?: number;
  /** Delay before the attempt after a failed one (default retryDelayMs: 2^attempt s, capped). */
  retryDelayMs?: (attempt: number) => number;
  /**
   * This worker is alone on its database (PGlite: one process, guarded by the DATA_DIR lock):
   * at start, jobs left running by a previous process are taken again at once instead of
   * after their lease. Never set it when several instances share a PostgreSQL database.
   */
  reclaimOnStart?: boolean;
  /** Done jobs are deleted this long after they finished (default 7 days). */
  keepDoneMs?: number;
  /**
   * Whether the process is busy with requests now (server/http/pressure.ts): background jobs
   * (RegisterOptions.background) are held back while it is. Default: never.
   */
  busy?: () => boolean;
}

export interface JobQueue {
  readonly instanceId: string;
  /** Declares the handler of a job name; this worker takes only jobs of registered names. */
  register<P>(name: string, handler: JobHandler<P>, options?: RegisterOptions): void;
  /** Stores a job and answers its id (or the pending job's id, see EnqueueOptions.key). */
  enqueue<P>(name: string, payload: P, options?: EnqueueOptions): Promise<string>;
  /**
   * The SQL that queues a job of `name` for each row of `rows` (columns payload jsonb, key
   * text, run_at timestamptz), for a part of a caller's own statement (a CTE): a run started
   * and its first step queued in one statement. Call `wake()` once the statement committed.
   */
  enqueueFrom(
    name: string,
    rows: RawBuilder<unknown>,
    options?: Pick<EnqueueOptions, "maxAttempts">,
  ): RawBuilder<{ id: string }>;
  /** Looks for due jobs now (of `name` only, if given): a job queued by enqueueFrom has committed. */
  wake(name?: string): void;
  /**
   * Many jobs of one name at once, without keys or run times (one statement; with `together`,
   * added to it, for its caller to send with the transaction's other inserts: Inserts).
   */
  enqueueMany<P>(
    name: string,
    payloads: readonly P[],
    options?: Pick<EnqueueOptions, "db" | "maxAttempts"> & { together?: Inserts },
  ): Promise<string[]>;
  /**
   * A job that runs every `everyMs` for the whole database: one row, keyed by its name, taken
   * by whichever instance is free (never two at once). Its handler answers the payload of its
   * next run (a watermark, say). A run that fails is logged and the job runs at its next time
   * with the payload it had; a row lost to crashes is made again by the next start().
   */
  recurring<P>(name: string, everyMs: number, initial: P, handler: (job: JobContext<P>) => Promise<P>): void;
  start(): Promise<void>;
  /** Stops taking jobs, waits for running ones, then aborts and hands back the rest. */
  stop(): Promise<void>;
  get(id: string): Promise<JobRecord | undefined>;
}
