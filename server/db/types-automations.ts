/**
 * Tables of workflow automation (issue 17, migration 0026). Runs are the run engine's
 * (types-runs.ts). Part of the one Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";
import type { AutomationDefinition } from "../../schemas/automation";
import type { AutomationStatus } from "../../schemas/automations";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface AutomationsTable {
  id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
  name: string;
  description: string | null;
  status: Generated<AutomationStatus>;
  owner_id: string | null;
  trigger_kind: string | null;
  published_version: number | null;
  published_at: NullableTimestamp;
  last_run_at: NullableTimestamp;
  failed_runs: Generated<number>;
  notify_on_failure: Generated<boolean>;
  failure_automation_id: string | null;
}

export interface AutomationDefinitionsTable {
  automation_id: string;
  /** jsonb written as JSON text and read back parsed. */
  draft: ColumnType<AutomationDefinition, string, string>;
  revision: Generated<number>;
  published: ColumnType<AutomationDefinition | null, string | null | undefined, string | null>;
  webhook_secret: string;
  next_run_at: NullableTimestamp;
  updated_at: Timestamp;
  updated_by: string | null;
}

/** A person's last test run of an automation (migration 0043; test-run.ts). */
export interface AutomationTestRunsTable {
  automation_id: string;
  user_id: string;
  /** jsonb written as JSON text and read back parsed. */
  sample: ColumnType<unknown, string, string>;
  result: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
}

export interface AutomationTables {
  automations: AutomationsTable;
  automation_definitions: AutomationDefinitionsTable;
  automation_test_runs: AutomationTestRunsTable;
}
