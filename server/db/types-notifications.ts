/** The notification centre's table (issue 16, server/notifications). Part of the one Database interface (types.ts). */
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  kind: string;
  module_id: number;
  title: string;
  body: Generated<string>;
  link: string | null;
  /** jsonb: written as JSON text, read back parsed. */
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  dedupe_key: string | null;
  created_at: Timestamp;
  read_at: NullableTimestamp;
}
