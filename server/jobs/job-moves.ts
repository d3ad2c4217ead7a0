/** The writes that end or move a run this worker holds (done, rekeyed, failed, recurring), fenced on its lease. */
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../db";
import type { JobState } from "./contract";
import { seconds, type TakenJob } from "./jobs.repository";

/**
 * The fence of every write that ends or changes a run: the job is still running this very run
 * (its attempt) for this worker. A worker whose lease was taken over matches nothing.
 */
const heldBy = (eb: ExpressionBuilder<Database, "jobs">, job: TakenJob, lockedBy: string) =>
  eb.and([
    eb("id", "=", job.id),
    eb("locked_by", "=", lockedBy),
    eb("attempts", "=", job.attempt),
    eb("state", "=", "running"),
  ]);

type Db = Kysely<Database> | Transaction<Database>;

/** The update that ends a run well, answering the job's id when the run was this worker's. */
export function doneQuery(db: Db, job: TakenJob, lockedBy: string) {
  return db
    .updateTable("jobs")
    .set({
      state: "done",
      locked_by: null,
      locked_until: null,
      finished_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where((eb) => heldBy(eb, job, lockedBy))
    .returning("id");
}

/**
 * Ends a run well, on its own or in a caller's transaction (JobContext.finishIn: done when the
 * work it finishes commits). False when the run was no longer this worker's.
 */
export async function markDone(db: Db, job: TakenJob, lockedBy: string): Promise<boolean> {
  return (await doneQuery(db, job, lockedBy).execute()).length > 0;
}

/**
 * The update by which a running job takes on another payload and key (JobContext.carryOn),
 * answering its id; nothing when it is not ours, or when another pending job holds the key (the
 * caller queues nothing twice: it enqueues, which answers that job). With `runAt`, this run of
 * the job ends: it is queued again for then, its attempts back to none, as a new job would be.
 */
export function rekeyQuery(
  db: Db,
  job: TakenJob,
  lockedBy: string,
  payload: unknown,
  key: string | null,
  runAt?: Date,
) {
  const requeue = runAt
    ? {
        state: "queued" as const,
        attempts: 0,
        run_at: runAt,
        last_error: null,
        locked_by: null,
        locked_until: null,
      }
    : {};
  return db
    .updateTable("jobs")
    .set({
      payload: sql`cast(${JSON.stringify(payload ?? null)} as text)::jsonb`,
      key,
      ...requeue,
      updated_at: sql`now()`,
    })
    .where((eb) =>
      eb.and([
        heldBy(eb, job, lockedBy),
        ...(key === null
          ? []
          : [
              eb.not(
                eb.exists(
                  eb
                    .selectFrom("jobs as other")
                    .select(sql`1`.as("one"))
                    .whereRef("other.name", "=", "jobs.name")
                    .where("other.key", "=", key)
                    .where("other.state", "in", ["queued", "running"])
                    .whereRef("other.id", "<>", "jobs.id"),
                ),
              ),
            ]),
      ]),
    )
    .returning("id");
}

/** rekeyQuery, run: false when it changed nothing. */
export async function rekeyJob(
  db: Db,
  job: TakenJob,
  lockedBy: string,
  payload: unknown,
  key: string | null,
  runAt?: Date,
): Promise<boolean> {
  return (await rekeyQuery(db, job, lockedBy, payload, key, runAt).execute()).length > 0;
}

/**
 * Ends a run of a recurring job: queued again for `delayMs` later with `payload`, its attempts
 * back to none. False when the run was no longer this worker's.
 */
export async function markRecurring(
  db: Kysely<Database>,
  job: TakenJob,
  lockedBy: string,
  delayMs: number,
  payload: unknown,
  error: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({
      state: "queued",
      attempts: 0,
      run_at: sql`now() + ${seconds(delayMs)}`,
      payload: sql`cast(${JSON.stringify(payload ?? null)} as text)::jsonb`,
      last_error: error,
      locked_by: null,
      locked_until: null,
      updated_at: sql`now()`,
    })
    .where((eb) => heldBy(eb, job, lockedBy))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Ends a run with an error: queued again `delayMs` later, or 'failed' when it was the last
 * attempt. Answers the new state, or null when the run was no longer this worker's.
 */
export async function markFailed(
  db: Kysely<Database>,
  job: TakenJob,
  lockedBy: string,
  error: string,
  delayMs: number,
): Promise<{ state: JobState; runAt: Date } | null> {
  const last = sql<boolean>`attempts >= max_attempts`;
  const row = await db
    .updateTable("jobs")
    .set({
      state: sql`case when ${last} then 'failed' else 'queued' end`,
      run_at: sql`case when ${last} then run_at else now() + ${seconds(delayMs)} end`,
      finished_at: sql`case when ${last} then now() end`,
      last_error: error,
      locked_by: null,
      locked_until: null,
      updated_at: sql`now()`,
    })
    .where((eb) => heldBy(eb, job, lockedBy))
    .returning(["state", "run_at"])
    .executeTakeFirst();
  return row ? { state: row.state, runAt: row.run_at } : null;
}
