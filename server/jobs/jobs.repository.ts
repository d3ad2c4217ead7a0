/**
 * The SQL of the job queue, one function per statement. Every statement is a single
 * autocommitted query (or runs in the caller's transaction for an enqueue), so it behaves
 * the same on PGlite's one connection and on a PostgreSQL pool shared by several instances.
 * Times come from the database clock (now()), the one clock all instances share.
 *
 * A worker owns a running job while `locked_by` is its instance id and `locked_until` is in
 * the future; every write that ends a run is fenced on (locked_by, attempts), so a worker
 * whose lease was taken over cannot overwrite the new holder's outcome.
 */
import { randomUUID } from "node:crypto";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "../db";
import { type Inserts, insertRows } from "../db/insert-rows";
import { prepared } from "../db/statements";
import type { JobRecord } from "./contract";

/** A job this worker has just taken. */
export interface TakenJob {
  id: string;
  name: string;
  payload: unknown;
  /** 1 on the first run; also the fencing token of this run. */
  attempt: number;
}

export interface NewJob {
  name: string;
  payload: unknown;
  key: string | null;
  runAt: Date | null;
  maxAttempts: number;
}

export const seconds = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

/**
 * Inserts a job, or answers the queued job holding the same key. Answers null when the key
 * is held by a *running* job: the caller supersedes it and tries again.
 */
export async function insertJob(db: Kysely<Database>, job: NewJob): Promise<string | null> {
  const { rows } = await db.executeQuery(
    prepared(
      sql<{ id: string }>`
    insert into jobs (name, payload, key, run_at, max_attempts)
    values (
      ${job.name}, cast(${JSON.stringify(job.payload ?? null)} as text)::jsonb, ${job.key},
      coalesce(cast(${job.runAt} as timestamptz), now()), ${job.maxAttempts}
    )
    on conflict (name, key) where key is not null and state in ('queued', 'running')
    do update set key = excluded.key where jobs.state = 'queued'
    returning id
  `.compile(db),
    ),
  );
  return rows[0]?.id ?? null;
}

const JOB_COLUMNS = { id: "uuid", name: "text", payload: "jsonb", max_attempts: "integer" } as const;

/**
 * Many keyless jobs of one name in one statement (a batch of submissions' deliveries), or added
 * to `together` to go with the transaction's other inserts (Inserts).
 */
export async function insertJobs(
  db: Kysely<Database>,
  name: string,
  payloads: readonly unknown[],
  maxAttempts: number,
  together?: Inserts,
): Promise<string[]> {
  if (!payloads.length) return [];
  const ids = payloads.map(() => randomUUID());
  const insert = insertRows(
    "jobs",
    JOB_COLUMNS,
    payloads.map((payload, i) => ({ id: ids[i], name, payload, max_attempts: maxAttempts })),
  );
  if (together) together.add(insert);
  else await db.executeQuery(insert);
  return ids;
}

/**
 * A newer job with the same key replaces a running one: the running job finishes its run
 * but gives up its key and its remaining attempts, so an older payload is never retried
 * after a newer one.
 */
export async function supersedeRunning(db: Kysely<Database>, name: string, key: string): Promise<void> {
  await db
    .updateTable("jobs")
    .set({ key: null, max_attempts: sql`attempts`, updated_at: sql`now()` })
    .where("name", "=", name)
    .where("key", "=", key)
    .where("state", "=", "running")
    .execute();
}

export interface TakeRequest {
  /** Handler names and how many jobs of each this worker can start now. */
  wanted: { name: string; limit: number }[];
  /** Jobs this worker is running already (never taken twice by the same worker). */
  exclude: string[];
  lockedBy: string;
  leaseMs: number;
}

export interface TakeResult {
  taken: TakenJob[];
  /** Jobs whose last attempt's worker died: now 'failed'. */
  exhausted: { id: string; name: string }[];
}

/**
 * Takes due jobs (queued with run_at passed, or running with an expired lease) for each
 * name, oldest first, skipping rows another worker is taking at this moment. In the same
 * statement, running jobs whose lease expired on their last attempt are failed.
 */
export async function takeJobs(db: Kysely<Database>, request: TakeRequest): Promise<TakeResult> {
  const names = request.wanted.map((w) => w.name);
  const limits = request.wanted.map((w) => w.limit);
  const { rows } = await db.executeQuery(
    prepared(
      sql<{
        outcome: "taken" | "exhausted";
        id: string;
        name: string;
        payload: unknown;
        attempts: number;
      }>`
    with wanted as (
      select * from unnest(cast(${names} as text[]), cast(${limits} as int[])) as w(name, n)
    ),
    exhausted as (
      update jobs
      set state = 'failed', locked_by = null, locked_until = null, finished_at = now(), updated_at = now(),
          last_error = 'lease expired during the last attempt (the worker stopped or crashed)'
      where state = 'running' and locked_until < now() and attempts >= max_attempts
        and name = any(cast(${names} as text[]))
        and id <> all(cast(${request.exclude} as uuid[]))
      returning id, name
    ),
    picked as (
      select p.id from wanted w cross join lateral (
        select id from jobs
        where jobs.name = w.name
          and ((state = 'queued' and run_at <= now())
            or (state = 'running' and locked_until < now() and attempts < max_attempts))
          and id <> all(cast(${request.exclude} as uuid[]))
        order by run_at, id
        limit w.n
        for update skip locked
      ) p
    ),
    taken as (
      update jobs
      set state = 'running', locked_by = ${request.lockedBy}, locked_until = now() + ${seconds(request.leaseMs)},
          attempts = attempts + 1, updated_at = now()
      where id in (select id from picked)
      returning id, name, payload, attempts
    )
    select 'taken' as outcome, id, name, payload, attempts from taken
    union all
    select 'exhausted', id, name, null, null from exhausted
  `.compile(db),
    ),
  );
  const result: TakeResult = { taken: [], exhausted: [] };
  for (const row of rows) {
    if (row.outcome === "taken") {
      result.taken.push({ id: row.id, name: row.name, payload: row.payload, attempt: row.attempts });
    } else result.exhausted.push({ id: row.id, name: row.name });
  }
  return result;
}

/** Extends the leases of running jobs this worker still holds; answers their ids. */
export async function extendLeases(
  db: Kysely<Database>,
  ids: string[],
  lockedBy: string,
  leaseMs: number,
): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .updateTable("jobs")
    .set({ locked_until: sql`now() + ${seconds(leaseMs)}`, updated_at: sql`now()` })
    .where("id", "in", ids)
    .where("locked_by", "=", lockedBy)
    .where("state", "=", "running")
    .returning("id")
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * The insert of one job of `name` per row of `rows` (columns payload jsonb, key text, run_at
 * timestamptz), to be a part of a caller's statement (a CTE): the run engine starts a run and
 * queues its first step's job in one statement. A key a queued job holds already is kept by
 * that job, as insertJob does. The name and attempts are written into the text (a registered
 * job's name, a checked count): the caller's statement is the same text for every job of a
 * name, kept by shape.
 */
export function insertJobsFrom(name: string, rows: RawBuilder<unknown>, maxAttempts: number) {
  return sql<{ id: string }>`
    insert into jobs (name, payload, key, run_at, max_attempts)
    select ${sql.lit(name)}, r.payload, r.key, r.run_at, ${sql.lit(maxAttempts)} from (${rows}) as r
    on conflict (name, key) where key is not null and state in ('queued', 'running')
    do update set key = excluded.key where jobs.state = 'queued'
    returning id`;
}

/**
 * Hands running jobs back (a stopping worker): queued at once, and the interrupted run
 * does not count as an attempt.
 */
export async function releaseJobs(db: Kysely<Database>, ids: string[], lockedBy: string): Promise<number> {
  if (!ids.length) return 0;
  const result = await db
    .updateTable("jobs")
    .set({
      state: "queued",
      attempts: sql`attempts - 1`,
      run_at: sql`now()`,
      locked_by: null,
      locked_until: null,
      updated_at: sql`now()`,
    })
    .where("id", "in", ids)
    .where("locked_by", "=", lockedBy)
    .where("state", "=", "running")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Expires every lease at once, so jobs left running by a dead process are taken on the
 * next poll. Only for a worker that knows it is alone on the database (PGlite).
 */
export async function expireAllLeases(db: Kysely<Database>): Promise<number> {
  const result = await db
    .updateTable("jobs")
    .set({ locked_until: sql`'epoch'::timestamptz`, updated_at: sql`now()` })
    .where("state", "=", "running")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes done jobs finished more than `olderThanMs` ago (failed ones are kept). */
export async function deleteDone(db: Kysely<Database>, olderThanMs: number): Promise<number> {
  const result = await db
    .deleteFrom("jobs")
    .where("state", "=", "done")
    .where("finished_at", "<", sql<Date>`now() - ${seconds(olderThanMs)}`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function getJob(db: Kysely<Database>, id: string): Promise<JobRecord | undefined> {
  const row = await db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    payload: row.payload,
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAt: row.run_at,
    lockedBy: row.locked_by,
    lockedUntil: row.locked_until,
    lastError: row.last_error,
    key: row.key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}
