/**
 * When a run fails (issue 30): the record an automation with the trigger "Another automation
 * failed" (`automation-failed`) gets, read as `{{trigger.…}}`, and the bulk retry's body. Shared
 * by the server (server/modules/automation/failures.ts) and the builder's variable menu. Pure.
 */

/** The failed run's record as the failure automation's trigger reads it. */
export interface FailedRunRecord {
  /** The automation whose run failed. */
  automationId: string;
  automationName: string;
  /** The failed run, and where to look at it in the app. */
  runId: string;
  runLink: string;
  /** The step it failed on: its ID on the canvas, and its name (else what it does). */
  step: string;
  stepName: string;
  /** The step's last error, in words. */
  error: string;
  failedAt: string;
  /** The failed run's trigger kind and its record (the client, the form answer…). */
  triggerKind: string;
  trigger: Record<string, unknown>;
}

/** The failure automation's variables, labelled for the "Insert field" menu. */
export const FAILED_RUN_FIELDS: ReadonlyArray<{ key: keyof FailedRunRecord; label: string }> = [
  { key: "automationName", label: "Failed automation's name" },
  { key: "automationId", label: "Failed automation's ID" },
  { key: "stepName", label: "Step that failed" },
  { key: "step", label: "Step's ID" },
  { key: "error", label: "Error" },
  { key: "failedAt", label: "Failed at" },
  { key: "runId", label: "Failed run's ID" },
  { key: "runLink", label: "Failed run's address" },
  { key: "triggerKind", label: "Failed run's trigger" },
  { key: "trigger", label: "Failed run's trigger record" },
];

/** Where a bulk retry starts each run: its failed step, or a new run from the start. */
export const RETRY_FROM = ["failed-step", "start"] as const;
export type RetryFrom = (typeof RETRY_FROM)[number];

/** Most runs one bulk retry takes. */
export const MAX_BULK_RETRY = 200;
