/**
 * Versions of a record (issue 14; reused by form definitions): every explicit save, publish and
 * restore stores the record's values as a numbered version with who and when. Autosaves do not.
 * Any module's records: `resource` names whose (`cms:article`, `forms`).
 */
import { sql } from "kysely";
import type { VersionKind, VersionSummary } from "../../schemas/versions";
import type { AnyDb } from "../resources/rules";

export type { VersionKind, VersionSummary };

export interface Version extends VersionSummary {
  data: Record<string, unknown>;
}

/** Stores version `number` of a record (inside the write's transaction). */
export async function addVersion(
  db: AnyDb,
  v: {
    resource: string;
    recordId: string;
    number: number;
    kind: VersionKind;
    data: unknown;
    /** Null: the system (an automation's step). */
    actorId: string | null;
  },
): Promise<void> {
  await db
    .insertInto("record_versions")
    .values({
      resource: v.resource,
      record_id: v.recordId,
      number: v.number,
      kind: v.kind,
      data: JSON.stringify(v.data),
      created_by: v.actorId,
    })
    .execute();
}

const summaryColumns = [
  "v.number",
  "v.kind",
  "v.created_at",
  "v.created_by",
  sql<string | null>`nullif(trim(u.first_name || ' ' || u.last_name), '')`.as("author"),
] as const;

// biome-ignore lint/suspicious/noExplicitAny: rows of record_versions joined to users.
const toSummary = (r: any): VersionSummary => ({
  number: r.number,
  kind: r.kind,
  createdAt: new Date(r.created_at).toISOString(),
  createdBy: r.created_by,
  author: r.author ?? null,
});

/** A record's versions, newest first. */
export async function listVersions(db: AnyDb, resource: string, recordId: string): Promise<VersionSummary[]> {
  const rows = await db
    .selectFrom("record_versions as v")
    .leftJoin("users as u", "u.id", "v.created_by")
    .select(summaryColumns)
    .where("v.resource", "=", resource)
    .where("v.record_id", "=", recordId)
    .orderBy("v.number", "desc")
    .execute();
  return rows.map(toSummary);
}

export async function getVersion(
  db: AnyDb,
  resource: string,
  recordId: string,
  number: number,
): Promise<Version | undefined> {
  const row = await db
    .selectFrom("record_versions as v")
    .leftJoin("users as u", "u.id", "v.created_by")
    .select([...summaryColumns, "v.data"])
    .where("v.resource", "=", resource)
    .where("v.record_id", "=", recordId)
    .where("v.number", "=", number)
    .executeTakeFirst();
  if (!row) return undefined;
  const data = typeof row.data === "string" ? JSON.parse(row.data) : row.data;
  return { ...toSummary(row), data };
}

/** Versions go with their record. */
export async function deleteVersions(
  db: AnyDb,
  resource: string,
  recordIds: readonly string[],
): Promise<void> {
  if (!recordIds.length) return;
  await db
    .deleteFrom("record_versions")
    .where("resource", "=", resource)
    .where("record_id", "in", recordIds)
    .execute();
}
