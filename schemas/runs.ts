/**
 * Runs of the run engine (server/runs) as the server and the browser both name them: their
 * statuses and their steps' (docs/runs.md). The engine's contract (server/runs/contract.ts) and
 * the automation pages (src/pages/automation) read these.
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
