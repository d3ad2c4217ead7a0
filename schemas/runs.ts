/**
 * Runs of the run engine (server/runs) as the server and the browser both name them: their
 * statuses, their steps', and the run and step records (docs/runs.md). The engine's contract
 * (server/runs/contract.ts) reads the records with times as Dates, the automation pages
 * (src/pages/automation) as the API answers them, times as ISO strings.
 */
export const RUN_STATUSES = ["running", "waiting", "finished", "failed", "exited", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run in flight: a step is due now ('running') or later, or an event is awaited ('waiting'). */
export const ACTIVE_STATUSES = ["running", "waiting"] as const satisfies readonly RunStatus[];

/**
 * 'scheduled': its job is queued (first attempt, or a retry after a failed one);
 * 'waiting': it awaits an event until its timeout; 'done'; 'failed' (its attempts ran out, the
 * run failed with it); 'skipped': the run ended (exit, cancel) before it ran.
 */
export const STEP_STATUSES = ["scheduled", "waiting", "done", "failed", "skipped"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** What a run is about: the record exits and events find it by (a client, say). */
export interface RunSubject {
  type: string;
  id: string;
}

/**
 * A run: as the engine keeps it (`Time` = Date: server/runs/contract.ts's `Run`) and as the API
 * answers it (`Time` = string, ISO 8601: `ApiRun`, read by the automation pages).
 */
export interface RunRecord<Time extends Date | string, C = unknown> {
  id: string;
  kind: string;
  /** Whose run it is: a sequence's id, an automation's id. */
  ownerKey: string;
  /** The owner's version the run started on; its definition is pinned with it. */
  version: number;
  definitionHash: string;
  subject: RunSubject | null;
  status: RunStatus;
  /** Why it left early ('replied', 'opted-out', …), for 'exited' runs. */
  exitReason: string | null;
  /**
   * The step it is at: scheduled, awaited, the one it failed on, or the one it was at when it
   * exited or was cancelled. Null once finished.
   */
  cursor: string | null;
  /** The event the step at the cursor waits for. */
  awaiting: string | null;
  /** What the run started with (the trigger's record and data); never changed by the engine. */
  context: C;
  /** Outputs of the steps done so far, by step key (later steps read them as variables). */
  outputs: Record<string, unknown>;
  /** 0 for a run nothing else caused; a run started by a step of another is one deeper. */
  depth: number;
  parentRunId: string | null;
  /** `kind:ownerKey` of each run up the chain that caused this one (loop guard). */
  lineage: string[];
  dedupeKey: string | null;
  /** Steps it reached so far (done, failed, waiting or scheduled). */
  stepsReached: number;
  /** The error of the step it failed on. */
  error: string | null;
  startedAt: Time;
  finishedAt: Time | null;
  updatedAt: Time;
}

/** A step a run reached, with its times as `Time` (see RunRecord). */
export interface RunStepRecord<Time extends Date | string> {
  runId: string;
  key: string;
  type: string;
  /** 1 for the first step the run reached, 2 for the next, … */
  seq: number;
  status: StepStatus;
  /** Attempts made so far (0 until it first runs). */
  attempt: number;
  /** Not run before this time (a wait's end, a retry's backoff, an event's timeout). */
  dueAt: Time;
  startedAt: Time | null;
  finishedAt: Time | null;
  input: unknown;
  output: unknown;
  /** The last attempt's error (kept after a later attempt succeeds, so the history shows it). */
  error: string | null;
}

/**
 * A run with the definition it pinned (`D`: an automation's, for the automation pages) and its
 * steps, in the order reached.
 */
export interface RunWithStepsRecord<Time extends Date | string, C = unknown, D = unknown>
  extends RunRecord<Time, C> {
  definition: D;
  steps: RunStepRecord<Time>[];
}

/** A run as the API answers it (JSON: times as ISO 8601 strings). */
export type ApiRun<C = unknown> = RunRecord<string, C>;
/** A run's step as the API answers it. */
export type ApiRunStep = RunStepRecord<string>;
/** A run with its definition and steps as the API answers it (`GET /api/automation-runs/{id}`). */
export type ApiRunWithSteps<C = unknown, D = unknown> = RunWithStepsRecord<string, C, D>;
