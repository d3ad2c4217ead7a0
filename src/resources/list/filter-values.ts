/**
 * Reading filter values back from Refine's `CrudFilters`. Values synced through the URL
 * come back as text, so selects get them typed again here. Pure.
 */
import type { CrudFilter, CrudOperators } from "@refinedev/core";

/** The value of the `field`/`operator` filter, if set. */
export function filterValue(filters: readonly CrudFilter[], field: string, operator: CrudOperators): unknown {
  const found = filters.find((f) => "field" in f && f.field === field && f.operator === operator);
  const value = found?.value;
  return value === "" || value === null ? undefined : value;
}

/** An enum filter's value, typed like the enum's own values ("2" → 2 for numeric enums). */
export function typedEnumValue(
  value: unknown,
  choices: readonly (string | number)[],
): string | number | undefined {
  if (value === undefined) return undefined;
  return choices.find((c) => String(c) === String(value));
}

export const asBoolean = (value: unknown): boolean | undefined =>
  value === undefined ? undefined : value === true || value === "true";

export const asNumber = (value: unknown): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
};

/** Whether any filter (search included) has a value: the empty state then says "no match". */
export function hasActiveFilters(filters: readonly CrudFilter[]): boolean {
  return filters.some((f) => {
    const v = f.value;
    return v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && v.length === 0);
  });
}
