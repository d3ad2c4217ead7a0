/**
 * The one condition language (ARCHITECTURE §3): Refine's CrudFilters — `{ field, operator, value }`
 * leaves in `and`/`or` groups — read by list filters (as SQL, server/http/list-query.ts), and by
 * form logic, CRM segments and automation conditions through `matches` below, a pure function the
 * browser and the server share. Both read a condition the same way:
 * - a leaf whose value is missing, `""` or `[]` holds for every record (an unfilled filter);
 * - `contains`, `startswith`, `endswith` and their `n…` negations ignore case (SQL `ilike`);
 *   `eq`, `ne` and the comparisons do not (SQL `=`, `<`);
 * - a list value (a checkbox answer, a record's tags or domains) is `eq`/`in` one of the values
 *   when any of its items is, and `ne`/`nin` when none is;
 * - numbers compare as numbers, instants and days as times, other values as text.
 * `null`/`nnull` ("is empty"/"is not empty") also count `""` and `[]` as empty, as a person does.
 */

/** Operators of a leaf, Refine's names. */
export const OPERATORS = [
  "eq",
  "ne",
  "lt",
  "gt",
  "lte",
  "gte",
  "in",
  "nin",
  "between",
  "contains",
  "ncontains",
  "startswith",
  "nstartswith",
  "endswith",
  "nendswith",
  "null",
  "nnull",
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface LogicalFilter {
  field: string;
  operator: string;
  value?: unknown;
}
export interface ConditionalFilter {
  operator: "or" | "and";
  value: CrudFilter[];
}
export type CrudFilter = LogicalFilter | ConditionalFilter;

/** The spec's text conditions (§3) as labels over the operators, in the spec's order. */
export const TEXT_CONDITION_LABELS: ReadonlyArray<readonly [Operator, string]> = [
  ["eq", "is"],
  ["ne", "is not"],
  ["contains", "contains"],
  ["ncontains", "does not contain"],
  ["startswith", "starts with"],
  ["nstartswith", "does not start with"],
  ["endswith", "end with"],
  ["nendswith", "does not end with"],
  ["null", "is empty"],
  ["nnull", "is not empty"],
];

const isGroup = (f: CrudFilter): f is ConditionalFilter => f.operator === "or" || f.operator === "and";

const isEmpty = (v: unknown) =>
  v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);

/** A value at a dotted path (`address.city`) of a record. */
export function valueAt(record: Readonly<Record<string, unknown>>, field: string): unknown {
  let current: unknown = record;
  for (const part of field.split(".")) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A value as something ordered: a number, a time (ms) for dates, else its text (case counts, as in SQL). */
function orderable(v: unknown): number | string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "boolean") return v ? 1 : 0;
  const text = String(v).trim();
  if (text !== "" && Number.isFinite(Number(text))) return Number(text);
  if (ISO_DATE.test(text)) {
    const time = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
    if (!Number.isNaN(time)) return time;
  }
  return text;
}

/** Compares two values of one kind; null when they cannot be compared (a number with text). */
function compare(a: unknown, b: unknown): number | null {
  const x = orderable(a);
  const y = orderable(b);
  if (x === null || y === null || typeof x !== typeof y) return null;
  return x < y ? -1 : x > y ? 1 : 0;
}

const same = (a: unknown, b: unknown) => {
  if (typeof a === "boolean" || typeof b === "boolean") return String(a) === String(b);
  return compare(a, b) === 0;
};

const TEXT_TESTS: Record<string, (text: string, part: string) => boolean> = {
  contains: (t, p) => t.includes(p),
  startswith: (t, p) => t.startsWith(p),
  endswith: (t, p) => t.endsWith(p),
};

function leaf(record: Readonly<Record<string, unknown>>, filter: LogicalFilter): boolean {
  const { operator, value } = filter;
  const actual = valueAt(record, filter.field);
  if (operator === "null") return isEmpty(actual);
  if (operator === "nnull") return !isEmpty(actual);
  if (isEmpty(value)) return true;
  const items = Array.isArray(actual) ? actual : [actual];
  const wanted = Array.isArray(value) ? value : [value];
  switch (operator) {
    case "eq":
    case "in":
      return items.some((a) => wanted.some((w) => same(a, w)));
    case "ne":
    case "nin":
      return !items.some((a) => wanted.some((w) => same(a, w)));
    case "lt":
    case "gt":
    case "lte":
    case "gte": {
      const order = compare(actual, Array.isArray(value) ? value[0] : value);
      if (order === null) return false;
      return operator === "lt"
        ? order < 0
        : operator === "gt"
          ? order > 0
          : operator === "lte"
            ? order <= 0
            : order >= 0;
    }
    case "between": {
      if (!Array.isArray(value) || value.length !== 2) return false;
      const low = compare(actual, value[0]);
      const high = compare(actual, value[1]);
      return low !== null && high !== null && low >= 0 && high <= 0;
    }
  }
  const negated = operator.startsWith("n") && Object.hasOwn(TEXT_TESTS, operator.slice(1));
  const test = TEXT_TESTS[negated ? operator.slice(1) : operator];
  if (!test) return false;
  if (isEmpty(actual)) return negated;
  const part = String(value).toLowerCase();
  const hit = items.some((a) => a !== null && a !== undefined && test(String(a).toLowerCase(), part));
  return negated ? !hit : hit;
}

/**
 * Whether a record meets every condition of `filters` (an implicit `and`, as a list's filters).
 *
 * @example
 * matches({ country: "IN", score: 12 }, [
 *   { operator: "or", value: [{ field: "country", operator: "eq", value: "in" }, { field: "score", operator: "gt", value: 50 }] },
 * ]); // true
 */
export function matches(record: Readonly<Record<string, unknown>>, filters: readonly CrudFilter[]): boolean {
  return filters.every((f) => {
    if (!isGroup(f)) return leaf(record, f);
    const parts = Array.isArray(f.value) ? f.value : [];
    if (!parts.length) return true;
    return f.operator === "or"
      ? parts.some((p) => matches(record, [p]))
      : parts.every((p) => matches(record, [p]));
  });
}
