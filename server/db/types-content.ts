/**
 * Tables of the headless CMS and of the services it brought (issue 14): record versions,
 * content types and entries, domains, API tokens, navigations, webhooks and their deliveries.
 * Part of the one Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb written as JSON text (cast in SQL) and read back parsed. */
type Json<T> = ColumnType<T, string, string>;

export interface RecordVersionsTable {
  id: Generated<string>;
  resource: string;
  record_id: string;
  number: number;
  kind: "save" | "publish" | "restore";
  data: Json<Record<string, unknown>>;
  created_by: string | null;
  created_at: Timestamp;
}

export interface ContentTypesTable {
  id: Generated<string>;
  kind: "collection" | "single" | "component";
  api_name: string;
  name: string;
  /** The type's EntitySchema (schemas/cms-fields.ts). */
  schema: Json<unknown>;
  schema_version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
}

export interface CmsEntriesTable {
  id: Generated<string>;
  type_id: string;
  domain_ids: ColumnType<string[], string[] | undefined, string[]>;
  status: ColumnType<"draft" | "published" | "unpublished", string | undefined, string>;
  data: Json<Record<string, unknown>>;
  published: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  published_at: NullableTimestamp;
  slug: string | null;
  /** A variant: its locale and the entry it translates (both null for an entry itself). */
  locale: string | null;
  source_id: string | null;
  revision: Generated<number>;
  version: Generated<number>;
  draft_changed: Generated<boolean>;
  publish_at: NullableTimestamp;
  unpublish_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
}

export interface CmsApiTokensTable {
  id: Generated<string>;
  domain_id: string;
  name: string;
  token_hash: string;
  prefix: string;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: Timestamp;
  created_by: string | null;
}

export interface CmsNavigationsTable {
  id: Generated<string>;
  domain_id: string;
  name: string;
  title: string;
  max_depth: Generated<number>;
  items: Json<unknown[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
}

export interface CmsDomainsTable {
  id: Generated<string>;
  name: string;
  key: string;
  hostname: string | null;
  allowed_origins: Json<string[]>;
  access: "public" | "token";
  cache_control: string;
  default_locale: string;
  locales: Json<string[]>;
  preview_url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
}

export interface WebhooksTable {
  id: Generated<string>;
  module_id: number;
  name: string;
  url: string;
  events: Json<string[]>;
  secret: string;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhook_id: string;
  event: string;
  payload: Json<unknown>;
  state: ColumnType<"pending" | "delivered" | "failed", string | undefined, string>;
  attempts: Generated<number>;
  response_status: number | null;
  error: string | null;
  created_at: Timestamp;
  delivered_at: NullableTimestamp;
}
