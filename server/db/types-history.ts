/** The record history table (issue 31, migration 0045). Part of the one Database interface (types.ts). */
import type { ColumnType, Generated } from "kysely";

export interface RecordHistoryTable {
  /** bigint identity: pg answers it as a string. */
  id: ColumnType<string, never, never>;
  resource: string;
  record_id: string;
  action: "created" | "updated" | "deleted";
  actor_id: string | null;
  actor: string | null;
  at: Generated<ColumnType<Date, Date | string | undefined, Date | string>>;
  /** jsonb `{ field: [old, new] }`. */
  changes: ColumnType<Record<string, [unknown, unknown]>, string, string>;
}

export interface HistoryTables {
  record_history: RecordHistoryTable;
}
