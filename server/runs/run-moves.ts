// The statements that move a run: a step's change, a step done and the run advanced, a run's update.
import { type Selectable, sql } from "kysely";
import { BoundStatements, prepared, valuesOf } from "../db/statements";
import type { RunsTable } from "../db/types-runs";
import type { JobEndPart } from "../jobs";
import type { Db, Run, RunStatus, RunStep, StepStatus } from "./contract";
import { jsonb, jsonbOf, jsonText, toRun, toStep } from "./rows";

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
export interface JobEnd extends JobEndPart {
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
    ${a.job ? sql`, job as (${a.job.query(valuesOf(a.job.values)).where(sql<boolean>`exists (select 1 from next)`)})` : sql``}
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
    ...(job
      ? [sql`job as (${job.query(valuesOf(job.values)).where(sql<boolean>`exists (select 1 from moved)`)})`]
      : []),
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

/** A step a batch reached (BatchMoves): done in it, or the one the run is at, scheduled. */
export interface AddedStep {
  step_key: string;
  step_type: string;
  seq: number;
  status: "scheduled" | "done";
  attempt: number;
  due_at: Date;
  started_at?: Date | null;
  finished_at?: Date;
  input?: unknown;
  output?: unknown;
}

/** A batch's moves in one statement (writeMoves). */
export interface MovesWrite {
  /** The run as the moves leave it: its status, cursor, outputs and, finished, its end. */
  run: Run;
  /** The step the batch started on, done: its row exists. */
  done: {
    key: string;
    attempt: number;
    startedAt: Date | null;
    finishedAt: Date;
    input?: unknown;
    output?: unknown;
  };
  /** The steps the batch reached after it, in order: their rows are new. */
  added: AddedStep[];
  /** The job's own end, when the batch ends with the run finished or its next step due later. */
  job?: JobEnd;
}

/** writeMoves' statement, kept per shape: sent at the end of every batch. */
const batchWrites = new BoundStatements();

/**
 * A batch's moves written at once (server/runs/batch-moves.ts): the step it started on done,
 * the steps it reached inserted (done, and the one the run is at), the run moved, and the job
 * ended when the run did or waits. Answers the run as written: the batch's, which read it with
 * its lock and made every move since (nothing is read back). Undefined when the run is not
 * active (it ended in this transaction); the step it started on is done all the same, as with
 * advanceRun.
 */
export async function writeMoves(db: Db, w: MovesWrite): Promise<Run | undefined> {
  const { done, run, job } = w;
  const now = new Date();
  const finishedAt = run.status === "finished" ? (run.finishedAt ?? now) : undefined;
  const withInput = done.input !== undefined;
  const withOutput = done.output !== undefined;
  const shape = `${withInput ? "i" : "-"}${withOutput ? "o" : "-"}${finishedAt ? "f" : "-"}:${job?.shape ?? "-"}`;
  const values = {
    runId: run.id,
    status: run.status,
    cursor: run.cursor,
    outputs: jsonText(run.outputs),
    reached: w.added.length,
    now,
    finishedAt,
    added: jsonText(w.added),
    doneKey: done.key,
    attempt: done.attempt,
    startedAt: done.startedAt,
    doneAt: done.finishedAt,
    input: withInput ? jsonText(done.input) : undefined,
    output: withOutput ? jsonText(done.output) : undefined,
    ...job?.values,
  };
  const { rows } = await db.executeQuery(
    batchWrites.bind<{ job_ended: boolean }>(shape, values, (v) => {
      const jobPart = job
        ? sql`, job as (${job.query(v).where(sql<boolean>`exists (select 1 from moved)`)})`
        : sql``;
      return sql<{ job_ended: boolean }>`
    with done as (
      update run_steps
      set status = 'done', attempt = ${v("attempt")}, started_at = ${v("startedAt")}, finished_at = ${v("doneAt")}
        ${withInput ? sql`, input = ${jsonbOf(v("input"))}` : sql``}
        ${withOutput ? sql`, output = ${jsonbOf(v("output"))}` : sql``}
      where run_id = ${v("runId")} and step_key = ${v("doneKey")}
    ),
    moved as (
      update runs
      set status = ${v("status")}, cursor = ${v("cursor")}, awaiting = null, outputs = ${jsonbOf(v("outputs"))},
        steps_reached = steps_reached + ${v("reached")}, updated_at = ${v("now")}
        ${finishedAt ? sql`, finished_at = ${v("finishedAt")}` : sql``}
      where id = ${v("runId")} and status in ('running', 'waiting')
      returning id
    ),
    added as (
      insert into run_steps (run_id, step_key, step_type, seq, status, attempt, due_at, started_at, finished_at,
        input, output)
      select moved.id, a.step_key, a.step_type, a.seq, a.status, a.attempt, a.due_at, a.started_at, a.finished_at,
        a.input, a.output
      from moved cross join jsonb_to_recordset(${jsonbOf(v("added"))}) as a(step_key text, step_type text, seq integer,
        status text, attempt integer, due_at timestamptz, started_at timestamptz, finished_at timestamptz,
        input jsonb, output jsonb)
    )
    ${jobPart}
    select ${job ? sql`exists (select 1 from job)` : sql`false`} as job_ended
    from moved
  `.compile(db);
    }),
  );
  const row = rows[0];
  if (!row) return undefined;
  if (row.job_ended) job?.ended();
  return { ...run, updatedAt: now, ...(finishedAt ? { finishedAt } : {}) };
}
