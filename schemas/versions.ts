/** Differences between two versions of a record, field by field (the admin's compare view). */

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields whose values differ, in `order` first, then any other key either version has. */
export function diffValues(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
  order: readonly string[] = [],
): FieldChange[] {
  const keys = [...new Set([...order, ...Object.keys(before), ...Object.keys(after)])];
  return keys
    .filter((k) => !same(before[k], after[k]))
    .map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null }));
}

/** What kind of write made a version. */
export type VersionKind = "save" | "publish" | "restore";

/**
 * A numbered version of a record as the version routes answer it (server/versions/versions.ts:
 * CMS entries, forms, automations), for the server and the screens alike.
 */
export interface VersionSummary {
  number: number;
  kind: VersionKind;
  createdAt: string;
  createdBy: string | null;
  /** The author's name, or null when the user is gone. */
  author: string | null;
}
