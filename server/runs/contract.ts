/**
 * The run engine's public contract: what a module declares for its kind of run (flow, step
 * executors, exit checks, hooks), what it gets back (runs and their steps), and what
 * `createRunEngine` answers. engine.ts implements it, step-runner.ts executes steps, and
 * runs.repository.ts holds the SQL that moves runs, runs.reads.ts the reads. docs/runs.md explains
 * the model.
 */
import type { Kysely, Transaction } from "kysely";
import type { RunRecord, RunStatus, RunStepRecord, RunSubject, RunWithStepsRecord } from "../../schemas/runs";
import type { Database } from "../db";

/** A database to write in: the app's, or a caller's transaction (the write commits with it). */
export type Db = Kysely<Database> | Transaction<Database>;

export {
  ACTIVE_STATUSES,
  RUN_STATUSES,
  type RunStatus,
  type RunSubject,
  type StepStatus,
} from "../../schemas/runs";

/** A run as the engine keeps it (its fields: schemas/runs.ts, shared with the API's readers). */
export type Run<C = unknown> = RunRecord<Date, C>;
/** A step a run reached, as the engine keeps it. */
export type RunStep = RunStepRecord<Date>;
/** A run with the definition it pinned and its steps. */
export type RunWithSteps<C = unknown> = RunWithStepsRecord<Date, C>;

/** A step of a definition as the engine needs it: its type picks the executor. */
export interface StepDefinition {
  type: string;
}

/**
 * How a kind's definitions are walked. `next` may branch on the output of the step just done
 * (a condition's yes/no, a wait-for-event's event or timeout). Definitions are acyclic: a step
 * runs at most once per run.
 */
export interface RunFlow<D, S extends StepDefinition = StepDefinition> {
  /** The first step's key, or null when there is nothing to do. */
  first(definition: D): string | null;
  /** The step after `key` given its output, or null when the run is finished. */
  next(definition: D, key: string, output: unknown): string | null;
  /** The step of `key`, or undefined when the definition has none. */
  step(definition: D, key: string): S | undefined;
}

/** What a step executor answers (nothing: done, no output, the next step now). */
export interface StepOutcome {
  /** Recorded on the step and kept in `run.outputs[key]` for later steps. JSON. */
  output?: unknown;
  /** What the step worked on (a mail with its variables filled in), recorded for the history. */
  input?: unknown;
  /** The next step is not run before this time: a wait step's end. */
  nextAt?: Date;
  /**
   * The step stays open until `event` is signalled for the run (engine.signal) or until
   * `timeoutAt`; it is then done with output `{ resumedBy: "event", event, data }` or
   * `{ resumedBy: "timeout" }`, and `next` picks the branch.
   */
  awaitEvent?: { event: string; timeoutAt: Date };
  /** The run leaves after this step with this reason (an SMS step finds the client opted out). */
  exit?: string;
}

/** Output of a step that awaited an event, once the event or its timeout came. */
export type ResumeOutput = { resumedBy: "event"; event: string; data: unknown } | { resumedBy: "timeout" };

export interface StepContextBase<S, C> {
  run: Run<C>;
  key: string;
  step: S;
  /** 1 on the first attempt of this step, 2 on its first retry, … */
  attempt: number;
  /**
   * `run:<run id>:<step key>`: the same on every attempt of this step, so an outside service
   * told it (an SMS provider, an HTTP endpoint) acts once however often the step is retried.
   */
  idempotencyKey: string;
  /** Aborted when the app stops while the step runs. */
  signal: AbortSignal;
}

export interface StepContext<S, C> extends StepContextBase<S, C> {
  /**
   * The transaction that marks this step done and schedules the next one: write every effect
   * through it (mailer.queue(mails, trx), enqueue({ db: trx }), timeline rows), so effects and
   * progress commit together or not at all. Never use the app's `db` here: on PGlite it waits
   * for this very transaction.
   */
  trx: Transaction<Database>;
  /** What `prepare` answered, when the executor has one. */
  prepared: unknown;
}

/**
 * Executes steps of one type. `run` works in the step's transaction, with the run's row locked.
 * Work outside the database that takes time (an HTTP call) goes in `prepare`, which runs before
 * that transaction and without the lock; at least once, so it uses `idempotencyKey`.
 * Throwing fails the attempt (retried per the kind's retry policy); PermanentStepError fails the
 * step at once.
 */
export interface StepExecutorObject<S, C> {
  prepare?(ctx: StepContextBase<S, C>): Promise<unknown>;
  run(ctx: StepContext<S, C>): Promise<StepOutcome | undefined> | StepOutcome | undefined;
}

export type StepExecutor<S = StepDefinition, C = unknown> =
  | StepExecutorObject<S, C>
  | StepExecutorObject<S, C>["run"];

export interface RetryPolicy {
  /** Attempts of a step in all (1: no retry). */
  attempts: number;
  /** Wait before attempt n + 1 after attempt n failed, ms. */
  delayMs(attempt: number): number;
}

/** An owner whose runs moved (the change feed, server/runs/feed.ts). */
export interface RunsMoved {
  ownerKey: string;
  /** The latest move of its runs. */
  movedAt: Date;
  /** When its latest run started. */
  lastStartedAt: Date;
}

/**
 * The run's subject read with the run's lock, in the lock's own statement: the kind's exit check
 * and steps read it anyway, and each transaction of a run's steps saves that round trip. The
 * engine knows only a table and a key: it answers the row as JSON to `locked`, which keeps it
 * for the transaction (`row_to_json`: its columns in order, instants as ISO text).
 */
export interface SubjectRead<C = unknown> {
  /** Runs whose subject is of this type (`run.subject.type`); other runs read nothing. */
  subjectType: string;
  /** The table whose `id` is the subject's id. */
  table: keyof Database & string;
  /** The type of that `id` column (the run keeps the subject's id as text). */
  idType: "uuid" | "text";
  /**
   * Told the row (null: the subject is gone) each time a step's job locked the run, in its
   * transaction, before the exit check. Must not throw.
   */
  locked(trx: Transaction<Database>, run: Run<C>, row: Record<string, unknown> | null): void;
}

/** A module's kind of run ('sequence', 'automation'): declared once with engine.registerKind. */
export interface RunKind<D = unknown, S extends StepDefinition = StepDefinition, C = unknown> {
  flow: RunFlow<D, S>;
  /** One executor per step type. */
  executors: Record<string, StepExecutor<S, C>>;
  /**
   * Checked before each step in its transaction: a reason ('opted-out') ends the run as
   * 'exited' before the step runs; null lets it run.
   */
  exitCheck?(trx: Transaction<Database>, run: Run<C>, key: string): Promise<string | null>;
  /** The subject read with the run's lock, for the exit check and the steps (above). */
  subjectRead?: SubjectRead<C>;
  /** Called in the transaction that fails a run (notify its owner). Must not throw. */
  onRunFailed?(trx: Transaction<Database>, run: Run<C>, step: RunStep): Promise<void>;
  /** Called in the transaction that ends a run, whatever its end (finished, failed, exited, cancelled). */
  onRunEnded?(trx: Db, run: Run<C>): Promise<void>;
  /**
   * Told, about once a second and after they committed, which owners' runs moved (started,
   * stepped, ended): live pages, an owner's "last run" (server/runs/feed.ts). Must not throw.
   */
  onRunsChanged?(db: Kysely<Database>, moved: RunsMoved[]): Promise<void>;
  /** Per step or for all (default: 3 attempts, the job queue's backoff: 2 s, 4 s). */
  retry?: RetryPolicy | ((step: S) => RetryPolicy);
  /** Steps of this kind run at once in each instance (default 4). */
  concurrency?: number;
}

export interface StartInput<D = unknown, C = unknown> {
  kind: string;
  ownerKey: string;
  definition: D;
  /** The owner's version the definition belongs to (default 1). */
  version?: number;
  subject?: RunSubject | null;
  context?: C;
  /** The run whose step causes this one (depth and loop guard). */
  parent?: Run | null;
  /** At most one active run of the kind holds it: a second start answers the first run. */
  dedupeKey?: string;
  /** The first step not before this time (default now). */
  startAt?: Date;
}

export interface StartResult<C = unknown> {
  run: Run<C>;
  /** False when an active run already held the dedupe key (that run is answered). */
  created: boolean;
}

export interface ExitInput {
  subject: RunSubject;
  reason: string;
  kind?: string;
  ownerKey?: string;
}

export interface SignalInput {
  event: string;
  /** The runs of this subject that await `event`… */
  subject?: RunSubject;
  /** …or this run only. */
  runId?: string;
  kind?: string;
  data?: unknown;
}

export interface SignalEachInput {
  event: string;
  kind?: string;
  /** One signal a cause, in order: the runs of each subject awaiting `event` go on with its data. */
  signals: ReadonlyArray<{ subject: RunSubject; data?: unknown }>;
}

export interface ListRunsQuery {
  kind: string;
  ownerKey?: string;
  subject?: RunSubject;
  status?: readonly RunStatus[];
  /** Runs whose cursor is at this step (the step a failed run failed on, an active run's next). */
  step?: string;
  /** Runs started at or after / before this time. */
  startedFrom?: Date;
  startedBefore?: Date;
  /** Runs whose context's JSON holds this text, whatever its case (a trigger record's email). */
  contextText?: string;
  /** 1-based (default 1). */
  page?: number;
  /** Default 10, at most 200. */
  pageSize?: number;
}

/** A module's figures: runs per status, and exited runs per reason. */
export interface RunCounts {
  total: number;
  byStatus: Record<RunStatus, number>;
  byExitReason: Record<string, number>;
}

export interface RunEngine {
  /** Declares a kind and takes its steps' jobs (`run.<kind>`) on this instance. */
  registerKind<D, S extends StepDefinition, C>(kind: string, definition: RunKind<D, S, C>): void;
  /** Starts a run in `db` (a caller's transaction: the run exists only if it commits). */
  start<D, C>(db: Db, input: StartInput<D, C>): Promise<StartResult<C>>;
  /** Ends every active run of the subject (of a kind, of an owner) as 'exited'; answers them. */
  exit(db: Db, input: ExitInput): Promise<Run[]>;
  /** Resumes runs waiting for an event (their awaited step is done with the event as output). */
  signal(db: Db, input: SignalInput): Promise<Run[]>;
  /**
   * Many signals of one event (a batch of form answers): which subjects have a run awaiting it
   * is read once, and only theirs are signalled as `signal` would, in order.
   */
  signalEach(db: Db, input: SignalEachInput): Promise<Run[]>;
  /**
   * Ends an active (or failed) run as 'cancelled', with `reason` as its exit reason when given
   * (`retried`: a new run took its place). 404 when unknown, 409 when it ended already.
   */
  cancel(runId: string, db?: Db, reason?: string): Promise<Run>;
  /** Runs a failed run again from the step it failed on, with fresh attempts. 409 unless failed. */
  retryFromFailed(runId: string, db?: Db): Promise<Run>;
  get(runId: string, db?: Db): Promise<RunWithSteps | undefined>;
  list(query: ListRunsQuery, db?: Db): Promise<{ data: Run[]; total: number }>;
  /** Figures of several owners of a kind at once (a list of sequences with their counts). */
  counts(kind: string, ownerKeys: readonly string[], db?: Db): Promise<Map<string, RunCounts>>;
  /** Deletes an owner's runs (the sequence or automation was deleted); their jobs go too. */
  removeOwner(db: Db, kind: string, ownerKey: string): Promise<number>;
}
