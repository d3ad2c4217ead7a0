/**
 * The SQL of the run engine, one function per statement. Writes that move a run forward take
 * its row with FOR UPDATE first (lockRun, lockActiveRuns), so a step, an exit, an event and a
 * cancel of one run happen one after the other, whatever instance does them.
 */
import { type RawBuilder, type Selectable, sql } from "kysely";
import { BoundStatements } from "../db/statements";
import type { RunStepsTable, RunsTable } from "../db/types-runs";
import type { Db, Run, RunStep, RunSubject, SubjectRead } from "./contract";
import { ACTIVE_STATUSES } from "./contract";
import { jsonb, jsonbOf, jsonText, toRun, toStep } from "./rows";

// The statements that move a run (updateStep, advanceRun, updateRun) are in run-moves.ts.
export type { Advance, JobEnd, RunChange, StepChange } from "./run-moves";
export { advanceRun, updateRun, updateStep } from "./run-moves";

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
   * row of its payload, key and run time. The same text for every run of `jobShape`.
   */
  job(rows: RawBuilder<unknown>): RawBuilder<unknown>;
  jobShape: string;
}

/** startRun's statement, kept per shape: sent by every start. */
const starts = new BoundStatements();

/**
 * A run started in one statement: its definition (when it may be new), the run at its first
 * step, that step's row and its job. Undefined when an active run of the kind holds its dedupe
 * key (nothing is written then).
 */
export async function startRun(db: Db, run: RunStart): Promise<Run | undefined> {
  const { first } = run;
  const storing = run.definition !== undefined;
  const values = {
    hash: run.hash,
    definition: storing ? jsonText(run.definition) : undefined,
    kind: run.kind,
    ownerKey: run.ownerKey,
    version: run.version,
    subjectType: run.subject?.type ?? null,
    subjectId: run.subject?.id ?? null,
    context: jsonText(run.context ?? {}),
    depth: run.depth,
    parentRunId: run.parentRunId,
    lineage: run.lineage,
    dedupeKey: run.dedupeKey,
    status: first.waiting ? "waiting" : "running",
    firstKey: first.key,
    firstType: first.type,
    dueAt: first.dueAt,
  };
  const { rows } = await db.executeQuery(
    starts.bind(`${storing ? "store" : "-"}:${run.jobShape}`, values, (v) => {
      const definition = storing
        ? sql`stored as (
          insert into run_definitions (hash, definition) values (${v("hash")}, ${jsonbOf(v("definition"))})
          on conflict (hash) do nothing
        ),`
        : sql``;
      const jobRows = sql`
    select jsonb_build_object('runId', id, 'key', cursor) as payload, 'run:' || id || ':' || cursor as key,
      cast(${v("dueAt")} as timestamptz) as run_at
    from started`;
      return sql<Selectable<RunsTable>>`
    with ${definition} started as (
      insert into runs (kind, owner_key, version, definition_hash, subject_type, subject_id, context,
        depth, parent_run_id, lineage, dedupe_key, status, cursor, steps_reached)
      values (${v("kind")}, ${v("ownerKey")}, ${v("version")}, ${v("hash")}, ${v("subjectType")},
        ${v("subjectId")}, ${jsonbOf(v("context"))}, ${v("depth")}, ${v("parentRunId")},
        cast(${v("lineage")} as text[]), ${v("dedupeKey")}, ${v("status")}, ${v("firstKey")}, 1)
      on conflict (kind, dedupe_key) where dedupe_key is not null and status in ('running', 'waiting')
      do nothing
      returning *
    ),
    step as (
      insert into run_steps (run_id, step_key, step_type, seq, due_at)
      select id, cursor, ${v("firstType")}, 1, ${v("dueAt")} from started
    ),
    job as (${run.job(jobRows)})
    select * from started
  `.compile(db);
    }),
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
  /** The keys of every step the run reached (`reached` asked). */
  reached?: string[];
  /** The subject's row as JSON, null when it is gone (`subject` asked, and the run is about one of its type). */
  subject?: Record<string, unknown> | null;
}

/** What lockRun reads beside the run and its step, in the same statement. */
export interface LockExtras {
  /** The keys of the steps the run reached (a batch's guard against a flow coming back to one). */
  reached?: boolean;
  /** The run's subject (RunKind.subjectRead). */
  subject?: Pick<SubjectRead, "subjectType" | "table" | "idType">;
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
type Extras = { x_reached?: string[] | null; x_subject?: Record<string, unknown> | null };

/** The subject's row, by the run's subject id cast to its key's type only for runs about that type. */
function subjectColumn(read: NonNullable<LockExtras["subject"]>, subjectType: unknown) {
  const id = sql`case when r.subject_type = ${subjectType} then cast(r.subject_id as ${sql.raw(read.idType === "uuid" ? "uuid" : "text")}) end`;
  return sql`, (select row_to_json(x) from ${sql.table(read.table)} x where x.id = ${id}) as x_subject`;
}

/** lockRun's statement, kept per shape: sent by every step. */
const locks = new BoundStatements();

/**
 * Locks a run's row for the rest of the transaction, and reads one of its steps (and, asked,
 * the keys of all its steps and its subject's row).
 */
export async function lockRun(
  db: Db,
  runId: string,
  key: string | null,
  extras: LockExtras = {},
): Promise<LockedRun | undefined> {
  const { subject, reached } = extras;
  const shape = `${reached ? "reached" : "-"}:${subject ? `${subject.table}:${subject.idType}` : "-"}`;
  const values = { runId, key, subjectType: subject?.subjectType };
  const { rows } = await db.executeQuery(
    locks.bind(shape, values, (v) =>
      sql<Selectable<RunsTable> & Prefixed & Extras>`
    select r.*, ${sql.join(STEP_COLUMNS.map((c) => sql`s.${sql.ref(c)} as ${sql.ref(`s_${c}`)}`))}
      ${reached ? sql`, array(select k.step_key from run_steps k where k.run_id = r.id) as x_reached` : sql``}
      ${subject ? subjectColumn(subject, v("subjectType")) : sql``}
    from runs r left join run_steps s on s.run_id = r.id and s.step_key = ${v("key")}
    where r.id = ${v("runId")}
    for update of r
  `.compile(db),
    ),
  );
  const row = rows[0];
  if (!row) return undefined;
  const { x_reached, x_subject, ...runRow } = row;
  const run = toRun(runRow);
  const found: LockedRun = { run, step: undefined };
  if (extras.reached) found.reached = x_reached ?? [];
  if (extras.subject && run.subject?.type === extras.subject.subjectType) found.subject = x_subject ?? null;
  if (key === null || row.s_step_key === null) return found;
  const step = Object.fromEntries(STEP_COLUMNS.map((c) => [c, row[`s_${c}`]]));
  found.step = toStep({ ...step, run_id: run.id } as Selectable<RunStepsTable>);
  return found;
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

/**
 * Which of `subjects` have an active run awaiting `event` (of `kind`), as `type:id` keys: one
 * read, no locks (a signal then locks the runs of those it names).
 */
export async function subjectsAwaiting(
  db: Db,
  input: { event: string; kind?: string; subjects: readonly RunSubject[] },
): Promise<Set<string>> {
  const byType = new Map<string, string[]>();
  for (const s of input.subjects) byType.set(s.type, [...(byType.get(s.type) ?? []), s.id]);
  if (!byType.size) return new Set();
  let query = db
    .selectFrom("runs")
    .select(["subject_type", "subject_id"])
    .distinct()
    .where("status", "in", ACTIVE_STATUSES)
    .where("awaiting", "=", input.event)
    .where((eb) =>
      eb.or(
        [...byType].map(([type, ids]) =>
          eb.and([eb("subject_type", "=", type), eb("subject_id", "in", [...new Set(ids)])]),
        ),
      ),
    );
  if (input.kind) query = query.where("kind", "=", input.kind);
  const rows = await query.execute();
  return new Set(rows.map((r) => `${r.subject_type}:${r.subject_id}`));
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
