/**
 * The SQL of the run engine, one function per statement. Writes that move a run forward take
 * its row with FOR UPDATE first (lockRun, lockActiveRuns), so a step, an exit, an event and a
 * cancel of one run happen one after the other, whatever instance does them.
 */
import { type RawBuilder, type Selectable, sql } from "kysely";
import { prepared } from "../db/statements";
import type { RunStepsTable, RunsTable } from "../db/types-runs";
import type { JobEndQuery } from "../jobs";
import type { Db, Run, RunStatus, RunStep, RunSubject, StepStatus } from "./contract";
import { ACTIVE_STATUSES } from "./contract";
import { jsonb, toRun, toStep } from "./rows";

/** Stores a definition once per content. */
export async function saveDefinition(db: Db, hash: string, definition: unknown): Promise<void> {
  await db
    .insertInto("run_definitions")
    .values({ hash, definition: jsonb(definition) })
    .onConflict((oc) => oc.column("hash").doNothing())
    .execute();
}

export async function loadDefinition(db: Db, hash: string): Promise<unknown> {
  const row = await db
    .selectFrom("run_definitions")
    .select("definition")
    .where("hash", "=", hash)
    .executeTakeFirst();
  if (!row) throw new Error(`Run definition ${hash} is missing`);
  return row.definition;
}

export interface NewRun {
  kind: string;
  ownerKey: string;
  version: number;
  hash: string;
  subject: RunSubject | null;
  context: unknown;
  depth: number;
  parentRunId: string | null;
  lineage: string[];
  dedupeKey: string | null;
}

/** Inserts a run; undefined when an active run of the kind holds its dedupe key. */
export async function insertRun(db: Db, run: NewRun): Promise<Run | undefined> {
  const { rows } = await sql<Selectable<RunsTable>>`
    insert into runs (kind, owner_key, version, definition_hash, subject_type, subject_id, context,
      depth, parent_run_id, lineage, dedupe_key)
    values (${run.kind}, ${run.ownerKey}, ${run.version}, ${run.hash}, ${run.subject?.type ?? null},
      ${run.subject?.id ?? null}, ${jsonb(run.context ?? {})}, ${run.depth}, ${run.parentRunId},
      cast(${run.lineage} as text[]), ${run.dedupeKey})
    on conflict (kind, dedupe_key) where dedupe_key is not null and status in ('running', 'waiting')
    do nothing
    returning *
  `.execute(db);
  return rows[0] ? toRun(rows[0]) : undefined;
}

export interface RunStart extends NewRun {
  /** The definition, when it may not be stored yet (stored in the same statement). */
  definition?: unknown;
  /** The first step: the run's cursor, its row, and its job. */
  first: { key: string; type: string; dueAt: Date; waiting: boolean };
  /**
   * The first step's job, queued in the same statement (JobQueue.enqueueFrom) from `rows`: one
   * row of its payload, key and run time.
   */
  job(rows: RawBuilder<unknown>): RawBuilder<unknown>;
}

/**
 * A run started in one statement: its definition (when it may be new), the run at its first
 * step, that step's row and its job. Undefined when an active run of the kind holds its dedupe
 * key (nothing is written then).
 */
export async function startRun(db: Db, run: RunStart): Promise<Run | undefined> {
  const { first } = run;
  const definition =
    run.definition === undefined
      ? sql``
      : sql`stored as (
          insert into run_definitions (hash, definition) values (${run.hash}, ${jsonb(run.definition)})
          on conflict (hash) do nothing
        ),`;
  const jobRows = sql`
    select jsonb_build_object('runId', id, 'key', cursor) as payload, 'run:' || id || ':' || cursor as key,
      cast(${first.dueAt} as timestamptz) as run_at
    from started`;
  const { rows } = await db.executeQuery(
    prepared(
      sql<Selectable<RunsTable>>`
    with ${definition} started as (
      insert into runs (kind, owner_key, version, definition_hash, subject_type, subject_id, context,
        depth, parent_run_id, lineage, dedupe_key, status, cursor, steps_reached)
      values (${run.kind}, ${run.ownerKey}, ${run.version}, ${run.hash}, ${run.subject?.type ?? null},
        ${run.subject?.id ?? null}, ${jsonb(run.context ?? {})}, ${run.depth}, ${run.parentRunId},
        cast(${run.lineage} as text[]), ${run.dedupeKey}, ${first.waiting ? "waiting" : "running"},
        ${first.key}, 1)
      on conflict (kind, dedupe_key) where dedupe_key is not null and status in ('running', 'waiting')
      do nothing
      returning *
    ),
    step as (
      insert into run_steps (run_id, step_key, step_type, seq, due_at)
      select id, cursor, ${first.type}, 1, ${first.dueAt} from started
    ),
    job as (${run.job(jobRows)})
    select * from started
  `.compile(db),
    ),
  );
  return rows[0] ? toRun(rows[0]) : undefined;
}

export async function activeRunByDedupeKey(db: Db, kind: string, key: string): Promise<Run | undefined> {
  const row = await db
    .selectFrom("runs")
    .selectAll()
    .where("kind", "=", kind)
    .where("dedupe_key", "=", key)
    .where("status", "in", ACTIVE_STATUSES)
    .executeTakeFirst();
  return row ? toRun(row) : undefined;
}

export interface LockedRun {
  run: Run;
  /** The step of `key`, if the run reached it. */
  step: RunStep | undefined;
}

/** The step columns lockRun reads beside the run's, prefixed `s_` (one statement for both). */
const STEP_COLUMNS = [
  "step_key",
  "step_type",
  "seq",
  "status",
  "attempt",
  "due_at",
  "started_at",
  "finished_at",
  "input",
  "output",
  "error",
] as const;

type Prefixed = { [C in (typeof STEP_COLUMNS)[number] as `s_${C}`]: Selectable<RunStepsTable>[C] | null };

/**
 * Every column of a run but its context, which never changes: a move answers the run with the
 * context its caller has (it may be a large record, parsed once per transaction, not per move).
 */
const MOVED_COLUMNS = [
  "id",
  "kind",
  "owner_key",
  "version",
  "definition_hash",
  "subject_type",
  "subject_id",
  "status",
  "exit_reason",
  "cursor",
  "awaiting",
  "outputs",
  "depth",
  "parent_run_id",
  "lineage",
  "dedupe_key",
  "steps_reached",
  "error",
  "started_at",
  "finished_at",
  "updated_at",
] as const satisfies readonly Exclude<keyof RunsTable, "context">[];

type MovedRow = Omit<Selectable<RunsTable>, "context">;
const movedRun = (row: MovedRow, run: Pick<Run, "context">): Run => toRun({ ...row, context: run.context });
const MOVED = sql.join(MOVED_COLUMNS.map((c) => sql.ref(`moved.${c}`)));

/** Locks a run's row for the rest of the transaction, and reads one of its steps. */
export async function lockRun(db: Db, runId: string, key: string | null): Promise<LockedRun | undefined> {
  const { rows } = await db.executeQuery(
    prepared(
      sql<Selectable<RunsTable> & Prefixed>`
    select r.*, ${sql.join(STEP_COLUMNS.map((c) => sql`s.${sql.ref(c)} as ${sql.ref(`s_${c}`)}`))}
    from runs r left join run_steps s on s.run_id = r.id and s.step_key = ${key}
    where r.id = ${runId}
    for update of r
  `.compile(db),
    ),
  );
  const row = rows[0];
  if (!row) return undefined;
  const run = toRun(row);
  if (key === null || row.s_step_key === null) return { run, step: undefined };
  const step = Object.fromEntries(STEP_COLUMNS.map((c) => [c, row[`s_${c}`]]));
  return { run, step: toStep({ ...step, run_id: run.id } as Selectable<RunStepsTable>) };
}

export interface ActiveRunFilter {
  subject?: RunSubject;
  runId?: string;
  kind?: string;
  ownerKey?: string;
  awaiting?: string;
}

/** Locks the active runs that match, in id order (two callers never wait on each other in a circle). */
export async function lockActiveRuns(db: Db, filter: ActiveRunFilter): Promise<Run[]> {
  let query = db.selectFrom("runs").selectAll().where("status", "in", ACTIVE_STATUSES);
  if (filter.subject) {
    query = query.where("subject_type", "=", filter.subject.type).where("subject_id", "=", filter.subject.id);
  }
  if (filter.runId) query = query.where("id", "=", filter.runId);
  if (filter.kind) query = query.where("kind", "=", filter.kind);
  if (filter.ownerKey) query = query.where("owner_key", "=", filter.ownerKey);
  if (filter.awaiting) query = query.where("awaiting", "=", filter.awaiting);
  const rows = await query.orderBy("id").forUpdate().execute();
  return rows.map(toRun);
}

export interface StepChange {
  status: StepStatus;
  attempt?: number;
  dueAt?: Date;
  startedAt?: Date | null;
  finishedAt?: Date | null;
  input?: unknown;
  output?: unknown;
  error?: string | null;
}

/** The SET of a step's change (updateStep, and updateRun's step done beside the run). */
function stepSet(change: StepChange) {
  return {
    status: change.status,
    ...(change.attempt !== undefined ? { attempt: change.attempt } : {}),
    ...(change.dueAt !== undefined ? { due_at: change.dueAt } : {}),
    ...(change.startedAt !== undefined ? { started_at: change.startedAt } : {}),
    ...(change.finishedAt !== undefined ? { finished_at: change.finishedAt } : {}),
    ...(change.input !== undefined ? { input: jsonb(change.input) } : {}),
    ...(change.output !== undefined ? { output: jsonb(change.output) } : {}),
    ...(change.error !== undefined ? { error: change.error } : {}),
  };
}

export async function updateStep(db: Db, runId: string, key: string, change: StepChange): Promise<RunStep> {
  const row = await db
    .updateTable("run_steps")
    .set(stepSet(change))
    .where("run_id", "=", runId)
    .where("step_key", "=", key)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toStep(row);
}

export interface Advance {
  runId: string;
  /** The run's context (kept: a move does not read it back). */
  context: unknown;
  /** The step done: its key and record. */
  done: { key: string; attempt: number; startedAt: Date | null; input?: unknown; output?: unknown };
  /** The run's move: its status, cursor (the next step) and outputs. */
  run: { status: RunStatus; outputs: Record<string, unknown> };
  /** The next step, scheduled. */
  next: { key: string; type: string; dueAt: Date };
  /** The job's own update when it is queued again for the next step (the run moved). */
  job?: JobEnd;
}

/** A job's update to run with a move (JobContext.endQuery), and what to tell when it matched. */
export interface JobEnd {
  query: JobEndQuery;
  ended(): void;
}

/**
 * A step done and the run moved on to its next one, in one statement (the usual move of a run). Answers the run moved and whether the next step was
 * new to it, or undefined when the run is not active (it ended in this transaction).
 */
export async function advanceRun(db: Db, a: Advance): Promise<{ run: Run; inserted: boolean } | undefined> {
  const now = new Date();
  const { done } = a;
  const { rows } = await db.executeQuery(
    prepared(
      sql<MovedRow & { inserted: boolean; job_ended: boolean }>`
    with done as (
      update run_steps
      set status = 'done', attempt = ${done.attempt}, started_at = ${done.startedAt}, finished_at = ${now}
        ${done.input !== undefined ? sql`, input = ${jsonb(done.input)}` : sql``}
        ${done.output !== undefined ? sql`, output = ${jsonb(done.output)}` : sql``}
      where run_id = ${a.runId} and step_key = ${done.key}
      returning 1
    ),
    moved as (
      update runs
      set status = ${a.run.status}, cursor = ${a.next.key}, awaiting = null, outputs = ${jsonb(a.run.outputs)},
        steps_reached = steps_reached + 1, updated_at = ${now}
      where id = ${a.runId} and status in ('running', 'waiting')
      returning ${sql.join(MOVED_COLUMNS.map((c) => sql.ref(c)))}
    ),
    next as (
      insert into run_steps (run_id, step_key, step_type, seq, due_at)
      select id, ${a.next.key}, ${a.next.type}, steps_reached, ${a.next.dueAt} from moved
      on conflict (run_id, step_key) do nothing
      returning 1
    )
    ${a.job ? sql`, job as (${a.job.query.where(sql<boolean>`exists (select 1 from next)`)})` : sql``}
    select ${MOVED}, exists (select 1 from next) as inserted,
      ${a.job ? sql`exists (select 1 from job)` : sql`false`} as job_ended
    from moved
  `.compile(db),
    ),
  );
  const row = rows[0];
  if (row?.job_ended) a.job?.ended();
  return row ? { run: movedRun(row, a), inserted: row.inserted } : undefined;
}

/** A run's step as it is now. */
export async function getStep(db: Db, runId: string, key: string): Promise<RunStep | undefined> {
  const row = await db
    .selectFrom("run_steps")
    .selectAll()
    .where("run_id", "=", runId)
    .where("step_key", "=", key)
    .executeTakeFirst();
  return row ? toStep(row) : undefined;
}

/** Marks a run's pending step skipped (the run ended before it ran). */
export async function skipPendingStep(db: Db, runId: string, key: string | null): Promise<void> {
  if (key === null) return;
  await db
    .updateTable("run_steps")
    .set({ status: "skipped", finished_at: new Date() })
    .where("run_id", "=", runId)
    .where("step_key", "=", key)
    .where("status", "in", ["scheduled", "waiting"])
    .execute();
}

export interface RunChange {
  status: RunStatus;
  cursor?: string | null;
  awaiting?: string | null;
  outputs?: Record<string, unknown>;
  exitReason?: string | null;
  error?: string | null;
  finishedAt?: Date | null;
  /** Adds one to the steps reached (a new step was scheduled). */
  reachedStep?: boolean;
}

/**
 * Moves a run that is in one of the `from` statuses; undefined when it is not (it ended in this
 * very transaction: an executor exited its own subject's runs, say). `step` is changed in the
 * same statement, whatever the run's status.
 */
export async function updateRun(
  db: Db,
  run: Pick<Run, "id" | "context">,
  change: RunChange,
  from: readonly RunStatus[],
  also: { step?: { key: string; change: StepChange }; job?: JobEnd } = {},
): Promise<Run | undefined> {
  const move = db
    .updateTable("runs")
    .set({
      status: change.status,
      ...(change.cursor !== undefined ? { cursor: change.cursor } : {}),
      ...(change.awaiting !== undefined ? { awaiting: change.awaiting } : {}),
      ...(change.outputs !== undefined ? { outputs: jsonb(change.outputs) } : {}),
      ...(change.exitReason !== undefined ? { exit_reason: change.exitReason } : {}),
      ...(change.error !== undefined ? { error: change.error } : {}),
      ...(change.finishedAt !== undefined ? { finished_at: change.finishedAt } : {}),
      ...(change.reachedStep ? { steps_reached: sql`steps_reached + 1` } : {}),
      updated_at: new Date(),
    })
    .where("id", "=", run.id)
    .where("status", "in", from)
    .returning(MOVED_COLUMNS);
  const { step, job } = also;
  if (!step && !job) {
    const [row] = (await db.executeQuery(prepared(move.compile()))).rows;
    return row ? movedRun(row, run) : undefined;
  }
  // The last step done and the job ended with the run, in the same statement: the step whatever
  // the run's status, the job only when the run moved.
  const parts = [
    ...(step
      ? [
          sql`step as (${db
            .updateTable("run_steps")
            .set(stepSet(step.change))
            .where("run_id", "=", run.id)
            .where("step_key", "=", step.key)})`,
        ]
      : []),
    sql`moved as (${move})`,
    ...(job ? [sql`job as (${job.query.where(sql<boolean>`exists (select 1 from moved)`)})`] : []),
  ];
  const { rows } = await db.executeQuery(
    prepared(
      sql<MovedRow & { job_ended: boolean }>`
    with ${sql.join(parts)}
    select ${MOVED}, ${job ? sql`exists (select 1 from job)` : sql`false`} as job_ended from moved
  `.compile(db),
    ),
  );
  const row = rows[0];
  if (row?.job_ended) job?.ended();
  return row ? movedRun(row, run) : undefined;
}

/** Removes queued jobs (a wait or a timeout of a run that ended): they would only find it ended. */
export async function deleteQueuedJobs(db: Db, name: string, keys: string[]): Promise<void> {
  if (!keys.length) return;
  await db
    .deleteFrom("jobs")
    .where("name", "=", name)
    .where("key", "in", keys)
    .where("state", "=", "queued")
    .execute();
}

/** Deletes an owner's runs (their steps go with them) and their queued jobs; answers how many runs. */
export async function deleteOwnerRuns(
  db: Db,
  kind: string,
  ownerKey: string,
  jobName: string,
): Promise<number> {
  await sql`
    delete from jobs
    where name = ${jobName} and state = 'queued'
      and key in (
        select 'run:' || id || ':' || cursor from runs
        where kind = ${kind} and owner_key = ${ownerKey} and cursor is not null
      )
  `.execute(db);
  const result = await db
    .deleteFrom("runs")
    .where("kind", "=", kind)
    .where("owner_key", "=", ownerKey)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
