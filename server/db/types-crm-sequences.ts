/**
 * Tables of the CRM's sequences (issue 16, migration 0025). Enrolments are the run engine's
 * runs (types-runs.ts). Part of the one Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";
import type { SequenceStep } from "../../schemas/crm-sequence-steps";
import type { SequenceStatus } from "../../schemas/crm-sequences";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CrmSequencesTable {
  id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
  name: string;
  description: string | null;
  status: Generated<SequenceStatus>;
  version: Generated<number>;
  step_count: Generated<number>;
}

export interface CrmSequenceStepsTable {
  sequence_id: string;
  /** jsonb written as JSON text and read back parsed. */
  steps: ColumnType<SequenceStep[], string | undefined, string>;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface CrmSequenceTables {
  crm_sequences: CrmSequencesTable;
  crm_sequence_steps: CrmSequenceStepsTable;
}
