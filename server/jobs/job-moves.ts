/** The writes that end or move a run this worker holds (done, rekeyed, failed, recurring), fenced on its lease. */
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../db";
import { type Slots, valuesOf } from "../db/statements";
import type { JobEndPart, JobState } from "./contract";
import { seconds, type TakenJob } from "./jobs.repository";

/** The values of a job's fence (heldBy), by name: this run of the job, on this worker. */
export const heldValues = (job: TakenJob, lockedBy: string) => ({
  "job.id": job.id,
  "job.lockedBy": lockedBy,
  "job.attempt": job.attempt,
});

/**
 * The fence of every write that ends or changes a run: the job is still running this very run
 * (its attempt) for this worker. A worker whose lease was taken over matches nothing. Its
 * values come by name (heldValues): slots where the statement is kept by shape.
 */
const heldBy = (eb: ExpressionBuilder<Database, "jobs">, v: Slots) =>
  eb.and([
    eb("id", "=", v<string>("job.id")),
    eb("locked_by", "=", v<string>("job.lockedBy")),
    eb("attempts", "=", v<number>("job.attempt")),
    eb("state", "=", sql.lit("running" as const)),
  ]);

type Db = Kysely<Database> | Transaction<Database>;

/** The update that ends a run well, answering the job's id when the run was this worker's (heldValues). */
export function doneQuery(db: Db, v: Slots) {
  return db
    .updateTable("jobs")
    .set({
      state: sql.lit("done" as const),
      locked_by: sql.lit(null),
      locked_until: sql.lit(null),
      finished_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where((eb) => heldBy(eb, v))
    .returning("id");
}

/**
 * Ends a run well, on its own or in a caller's transaction (JobContext.finishIn: done when the
 * work it finishes commits). False when the run was no longer this worker's.
 */
export async function markDone(db: Db, job: TakenJob, lockedBy: string): Promise<boolean> {
  return (await doneQuery(db, valuesOf(heldValues(job, lockedBy))).execute()).length > 0;
}

/** Which parts a rekey has (rekeyQuery): the key it takes, if any, and whether it is queued again. */
interface RekeyShape {
  keyed: boolean;
  requeued: boolean;
}

/** The values of a rekey (rekeyQuery), by name, beside the fence's. */
const rekeyValues = (payload: unknown, key: string | null, runAt?: Date) => ({
  "job.payload": JSON.stringify(payload ?? null),
  "job.key": key,
  "job.runAt": runAt ?? null,
});

/**
 * The update by which a running job takes on another payload and key (JobContext.carryOn),
 * answering its id; nothing when it is not ours, or when another pending job holds the key (the
 * caller queues nothing twice: it enqueues, which answers that job). When requeued, this run of
 * the job ends: it is queued again for its run time, its attempts back to none, as a new job
 * would be. Values by name: heldValues and rekeyValues.
 */
export function rekeyQuery(db: Db, v: Slots, shape: RekeyShape) {
  const requeue = shape.requeued
    ? {
        state: sql.lit("queued" as const),
        attempts: sql.lit(0),
        run_at: v<Date>("job.runAt"),
        last_error: sql.lit(null),
        locked_by: sql.lit(null),
        locked_until: sql.lit(null),
      }
    : {};
  return db
    .updateTable("jobs")
    .set({
      payload: sql`cast(${v<string>("job.payload")} as text)::jsonb`,
      key: v<string | null>("job.key"),
      ...requeue,
      updated_at: sql`now()`,
    })
    .where((eb) =>
      eb.and([
        heldBy(eb, v),
        ...(shape.keyed
          ? [
              eb.not(
                eb.exists(
                  eb
                    .selectFrom("jobs as other")
                    .select(sql`1`.as("one"))
                    .whereRef("other.name", "=", "jobs.name")
                    .where("other.key", "=", v<string>("job.key"))
                    .where("other.state", "in", [sql.lit("queued" as const), sql.lit("running" as const)])
                    .whereRef("other.id", "<>", "jobs.id"),
                ),
              ),
            ]
          : []),
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
  const values = { ...heldValues(job, lockedBy), ...rekeyValues(payload, key, runAt) };
  const shape = { keyed: key !== null, requeued: runAt !== undefined };
  return (await rekeyQuery(db, valuesOf(values), shape).execute()).length > 0;
}

/**
 * A job's end as a part of another statement (JobContext.endQuery): done, or rekeyed and
 * queued again for `next.runAt`. Its shape names the statement it makes; its values are bound
 * by name, so the statement that holds it can be kept by shape (BoundStatements).
 */
export function jobEndPart(
  db: Db,
  job: TakenJob,
  lockedBy: string,
  next?: { payload: unknown; key: string | null; runAt: Date },
): JobEndPart {
  const held = heldValues(job, lockedBy);
  if (!next) return { shape: "done", values: held, query: (v) => doneQuery(db, v) };
  const shape = { keyed: next.key !== null, requeued: true };
  return {
    shape: shape.keyed ? "rekeyed" : "rekeyed-unkeyed",
    values: { ...held, ...rekeyValues(next.payload, next.key, next.runAt) },
    query: (v) => rekeyQuery(db, v, shape),
  };
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
    .where((eb) => heldBy(eb, valuesOf(heldValues(job, lockedBy))))
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
    .where((eb) => heldBy(eb, valuesOf(heldValues(job, lockedBy))))
    .returning(["state", "run_at"])
    .executeTakeFirst();
  return row ? { state: row.state, runAt: row.run_at } : null;
}
