/**
 * Merging duplicate clients (issue 16): what the kept ("primary") client holds afterwards.
 * One pure function read by the server's merge (server/modules/crm/merge.service.ts) and by
 * the merge dialog, which shows the same result and the same conflicts before anything is sent.
 *
 * - The primary's values win; a field it leaves empty takes the first duplicate's value.
 * - List fields (tags) take every value any of them holds, the primary's first.
 * - Opted out of SMS stays opted out (the earliest time); the last activity is the latest.
 * - A conflict is a field where two of them hold different values: the primary's is kept.
 */
import type { EntitySchema } from "./contract";
import { AUDIT_FIELDS, baseType } from "./contract";

type Values = Record<string, unknown>;

/** Fields merged by their meaning rather than "the primary's, else the first filled". */
const BY_MEANING: Readonly<Record<string, "earliest" | "latest">> = {
  sms_opted_out_at: "earliest",
  last_activity_at: "latest",
};

const isEmpty = (v: unknown) =>
  v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);

export interface MergeConflict {
  field: string;
  /** Each record's value, primary first (empty ones left out). */
  values: { id: string; value: unknown }[];
}

export interface MergeResult {
  /** Fields whose merged value differs from the primary's, with that value. */
  changes: Values;
  conflicts: MergeConflict[];
}

/**
 * What merging `duplicates` into `primary` gives, over the fields of `schema` (API records:
 * custom fields as top-level keys).
 *
 * @example
 * mergeRecords(clientSchema, { id: "a", phone: null, tags: ["vip"] }, [{ id: "b", phone: "+91…", tags: ["new"] }]);
 * // { changes: { phone: "+91…", tags: ["vip", "new"] }, conflicts: [] }
 */
export function mergeRecords(
  schema: EntitySchema,
  primary: Values,
  duplicates: readonly Values[],
): MergeResult {
  const changes: Values = {};
  const conflicts: MergeConflict[] = [];
  const all = [primary, ...duplicates];
  for (const [field, f] of Object.entries(schema.properties)) {
    if ((AUDIT_FIELDS as readonly string[]).includes(field)) continue;
    const filled = all.filter((r) => !isEmpty(r[field]));
    if (!filled.length) continue;
    const meaning = BY_MEANING[field];
    let merged: unknown;
    if (baseType(f) === "array") {
      merged = [...new Set(filled.flatMap((r) => r[field] as unknown[]))];
    } else if (meaning) {
      const times = filled.map((r) => String(r[field])).sort();
      merged = meaning === "earliest" ? times[0] : times[times.length - 1];
    } else {
      merged = filled[0][field];
      const distinct = new Set(filled.map((r) => JSON.stringify(r[field])));
      if (distinct.size > 1)
        conflicts.push({ field, values: filled.map((r) => ({ id: String(r.id), value: r[field] })) });
    }
    if (JSON.stringify(merged) !== JSON.stringify(primary[field] ?? null)) changes[field] = merged;
  }
  return { changes, conflicts };
}
