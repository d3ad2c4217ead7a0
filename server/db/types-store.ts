/**
 * Tables of the online store (issue 18): its connections to commerce platforms. Part of the one
 * Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";
import type { PlatformId, StoreConnectionStatus } from "../../schemas/store";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface StoreConnectionsTable {
  id: Generated<string>;
  platform: PlatformId;
  name: string;
  store_hash: string;
  /** The API token as the secret box sealed it (`store_connections.token:<id>`); never in clear. */
  token_sealed: string;
  store_name: string | null;
  currency: string | null;
  is_default: Generated<boolean>;
  status: Generated<StoreConnectionStatus>;
  last_checked_at: NullableTimestamp;
  last_error: string | null;
  last_sync_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
}

export interface StoreTables {
  store_connections: StoreConnectionsTable;
}
