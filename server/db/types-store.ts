/**
 * Tables of the online store (issue 18): its connections to commerce platforms, which catalogue
 * product is which store product (the links) and the syncs. Part of the one
 * Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";
import type { PlatformId, StoreConnectionStatus } from "../../schemas/store";
import type { StoreSyncRow, StoreSyncStatus } from "../../schemas/store-sync";

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
  /** The secret the store's webhooks carry in a header, sealed (`store_connections.webhook:<id>`). */
  webhook_secret_sealed: string | null;
  webhooks_status: Generated<"none" | "registered" | "failing">;
  webhooks_error: string | null;
  webhooks_at: NullableTimestamp;
}

/** A cart of the carts list: a store's abandoned cart, or a catalogue viewer's handed to the store. */
export interface StoreCartsTable {
  id: Generated<string>;
  source: "store" | "catalogue" | "proposal";
  status: "abandoned" | "checked_out" | "converted";
  connection_id: string | null;
  external_id: string | null;
  pdf_id: string | null;
  proposal_id: string | null;
  client_id: string | null;
  customer_name: string | null;
  email: string | null;
  currency: string;
  /** Integer minor units (paise for INR). */
  total_minor: ColumnType<string, number | string, number | string>;
  item_count: number;
  items: ColumnType<unknown, string, string>;
  checkout_url: string | null;
  order_id: string | null;
  cart_updated_at: Timestamp;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

/** A catalogue product linked to a store product (bc_variant_id null) or to one of its variants. */
export interface StoreProductLinksTable {
  connection_id: string;
  product_id: string;
  bc_product_id: number;
  bc_variant_id: number | null;
  /** The store's `date_modified` as the last sync read it. */
  store_modified_at: NullableTimestamp;
  /** The product's `updated_at` after the last sync or push wrote it: later means changed here. */
  local_updated_at: NullableTimestamp;
  synced_at: Timestamp;
}

export interface StoreSyncsTable {
  id: Generated<string>;
  connection_id: string;
  status: Generated<StoreSyncStatus>;
  total: Generated<number>;
  done: Generated<number>;
  created: Generated<number>;
  updated: Generated<number>;
  skipped: Generated<number>;
  conflicts: Generated<number>;
  report: ColumnType<StoreSyncRow[], string | undefined, string>;
  error: string | null;
  requested_by: string | null;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface StoreTables {
  store_connections: StoreConnectionsTable;
  store_carts: StoreCartsTable;
  store_product_links: StoreProductLinksTable;
  store_syncs: StoreSyncsTable;
}
