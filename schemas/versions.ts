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
