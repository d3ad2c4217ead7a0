/**
 * Tables of the durable run/step engine (server/runs, migration 0018). Part of the one
 * Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb written as JSON text (cast in SQL) and read back parsed. */
type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

export interface RunDefinitionsTable {
  /** SHA-256 of the definition's canonical JSON. */
  hash: string;
  definition: Json<unknown>;
  created_at: Timestamp;
}

export type RunStatusColumn = "running" | "waiting" | "finished" | "failed" | "exited" | "cancelled";
export type StepStatusColumn = "scheduled" | "waiting" | "done" | "failed" | "skipped";

export interface RunsTable {
  id: Generated<string>;
  kind: string;
  owner_key: string;
  version: Generated<number>;
  definition_hash: string;
  subject_type: string | null;
  subject_id: string | null;
  status: Generated<RunStatusColumn>;
  exit_reason: string | null;
  /** The step the run is at (scheduled, awaited, or the one that failed); null once ended. */
  cursor: string | null;
  /** The event the step at the cursor waits for, if any. */
  awaiting: string | null;
  context: Json<unknown>;
  /** Outputs of the steps done so far, by step key. */
  outputs: Json<Record<string, unknown>>;
  depth: Generated<number>;
  parent_run_id: string | null;
  /** `kind:owner_key` of every run up the chain that caused this one. */
  lineage: ColumnType<string[], string[] | undefined, string[]>;
  dedupe_key: string | null;
  steps_reached: Generated<number>;
  error: string | null;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface RunStepsTable {
  run_id: string;
  step_key: string;
  step_type: string;
  seq: number;
  status: Generated<StepStatusColumn>;
  attempt: Generated<number>;
  due_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  input: NullableJson<unknown>;
  output: NullableJson<unknown>;
  error: string | null;
}
