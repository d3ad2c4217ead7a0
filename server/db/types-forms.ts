/**
 * Tables of the forms module (issue 15): forms, their definitions, submissions, daily stats
 * and uploaded files, and partial answers. Part of the one Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb written as JSON text (cast in SQL) and read back parsed. */
type Json<T> = ColumnType<T, string, string>;

export interface FormsTable {
  id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
  name: string;
  slug: string;
  description: string | null;
  accepting: Generated<boolean>;
  status: Generated<"draft" | "published">;
  has_changes: Generated<boolean>;
  published_version: number | null;
  published_at: NullableTimestamp;
}

export interface FormDefinitionsTable {
  form_id: string;
  draft: Json<unknown>;
  revision: Generated<number>;
  published: ColumnType<unknown | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface FormSubmissionsTable {
  id: Generated<string>;
  form_id: string;
  version: number;
  answers: Json<Record<string, unknown>>;
  tracking: Json<Record<string, unknown>>;
  utm_source: Generated<string>;
  idempotency_key: string | null;
  created_at: Timestamp;
}

export interface FormStatsTable {
  form_id: string;
  day: ColumnType<Date | string, string, string>;
  utm_source: string;
  views: Generated<number>;
  submissions: Generated<number>;
  /** Visitors whose first answer was kept (migration 0040). */
  starts: Generated<number>;
  /** reached[k]: visitors who reached page k (pages counted from 0, arrays from 1: page 0 is `starts`). */
  reached: ColumnType<number[], number[] | undefined, number[]>;
}

/** A visitor's answers kept as they go (issue 29), keyed by the hash of their resume token. */
export interface FormPartialsTable {
  id: Generated<string>;
  form_id: string;
  token_hash: string;
  version: number;
  answers: Json<Record<string, unknown>>;
  page: number;
  furthest: number;
  tracking: Json<Record<string, unknown>>;
  utm_source: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  expires_at: Timestamp;
}

export interface FormFilesTable {
  token: string;
  form_id: string | null;
  field_id: string;
  storage_key: string;
  file_name: string;
  content_type: string;
  size: number;
  submission_id: string | null;
  created_at: Timestamp;
}
