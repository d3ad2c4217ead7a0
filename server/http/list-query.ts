/**
 * The list query contract of every list endpoint (ARCHITECTURE.md §3): `page` (1-based),
 * `pageSize`, `sort` (`-price,name`), `filters` (JSON of Refine CrudFilters), `q`.
 * Sorts and filters are only allowed on declared fields; values are always bound.
 */
import type { Expression, Kysely, SelectQueryBuilder } from "kysely";
import type { CrudFilter } from "../../schemas/conditions";
import { StatementCache } from "../db/statements";
import { badRequest } from "./errors";
import { nulFields } from "./input-guards";
import {
  escapeLike,
  type FieldType,
  fieldRef,
  invalidFilters,
  type PlannedFilter,
  planFilters,
  plannedExpression,
  plannedShape,
} from "./list-filter-sql";
import { EXACT_COUNT_CAP, type ListResult, pageWithTotal } from "./list-page";

export interface ListQuery {
  page?: number;
  pageSize?: number;
  sort?: string;
  filters?: string;
  q?: string;
}

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 200;
/**
 * Highest page number a list accepts: far past any list a person pages through, and low
 * enough that `(page - 1) * pageSize` stays an exact integer and a valid SQL OFFSET.
 */
export const MAX_PAGE = 1_000_000;
/** How deep `or`/`and` groups of `filters` may nest (the admin app nests two levels). */
export const MAX_FILTER_DEPTH = 8;

/** JSON Schema of the list query string, for route schemas. */
export const listQuerySchema = {
  type: "object",
  properties: {
    page: { type: "integer", minimum: 1, maximum: MAX_PAGE, default: 1 },
    pageSize: { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    sort: { type: "string", maxLength: 200 },
    filters: { type: "string", maxLength: 10_000 },
    q: { type: "string", maxLength: 200 },
  },
  additionalProperties: false,
} as const;

// The condition language is one (schemas/conditions.ts); list-filter-sql.ts is its SQL reading.
export type { ConditionalFilter, CrudFilter, LogicalFilter } from "../../schemas/conditions";
export type { FieldType } from "./list-filter-sql";
export { filterExpression } from "./list-filter-sql";

export { EXACT_COUNT_CAP, type ListResult, pageWithTotal } from "./list-page";

export interface ListOptions {
  /** Table alias prefixed to column names. */
  table: string;
  defaultSort: string;
  sortFields?: readonly string[];
  filterFields?: Readonly<Record<string, FieldType>>;
  /**
   * Fields that are not columns of `table`: the SQL expression that reads each (a `jsonb`
   * path of a runtime-defined entity, server/entities/jsonb-fields.ts). Filters, search and
   * sorts use it in place of `table.field`.
   */
  expressions?: Readonly<Record<string, Expression<unknown>>>;
  /** Fields searched (ilike) by `q`. */
  search?: readonly string[];
  /** Every matching row, no paging and no count (exports). */
  unpaged?: boolean;
}

/** Parses `sort` into column/direction pairs, refusing undeclared fields. */
export function parseSort(sort: string, allowed: readonly string[]): Array<[string, "asc" | "desc"]> {
  return sort
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const desc = s.startsWith("-");
      const field = desc ? s.slice(1) : s;
      if (!allowed.includes(field)) {
        throw badRequest("Invalid sort", [{ field: "sort", message: `cannot sort by '${field}'` }]);
      }
      return [field, desc ? "desc" : "asc"];
    });
}

/** True for a JSON object (not an array, not null). */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks the shape of parsed filters, so that only well-formed CrudFilters reach the SQL
 * builder: objects with a string `field` and `operator`, or `or`/`and` groups holding a list,
 * nested at most MAX_FILTER_DEPTH deep, without NUL characters in any value.
 */
function checkFilters(filters: unknown[], depth: number): void {
  if (depth > MAX_FILTER_DEPTH)
    throw invalidFilters(`must not nest more than ${MAX_FILTER_DEPTH} groups deep`);
  for (const f of filters) {
    if (!isObject(f)) throw invalidFilters("each filter must be an object");
    if (f.operator === "or" || f.operator === "and") {
      if (!Array.isArray(f.value)) throw invalidFilters(`${f.operator} needs a list`);
      checkFilters(f.value, depth + 1);
      continue;
    }
    if (typeof f.field !== "string") throw invalidFilters("each filter needs a field name");
    if (typeof f.operator !== "string")
      throw invalidFilters("each filter needs an operator", `filters.${f.field}`);
    if (nulFields(f.value, `filters.${f.field}`, "filters").length) {
      throw invalidFilters("must not contain NUL characters", `filters.${f.field}`);
    }
  }
}

export function parseFilters(raw: string | undefined): CrudFilter[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidFilters("must be JSON");
  }
  if (!Array.isArray(parsed)) throw invalidFilters("must be a list");
  checkFilters(parsed, 1);
  return parsed as CrudFilter[];
}

/**
 * Applies filters, sort and paging to a select and fetches the page with its total, both from
 * one snapshot (./list-page.ts: exact up to EXACT_COUNT_CAP matches, the planner's estimate
 * past it, `totalExact` telling which).
 *
 * With `kept`, the page's statement is kept per shape (which fields are filtered how, searched
 * or not, the sort) and sent with this request's values: a list screen asks the same shape
 * again and again, and building and compiling it each time is work thrown away, as is
 * PostgreSQL's parse and plan of it (a kept statement runs prepared there). `query` must then be
 * the same select on every call, up to the values it binds: give a statement cache alone for a
 * select that binds none (a resource's `select t.* from <table> as t`), or with the key of the
 * select's shape and the values it binds, in order (`where t.type_id = $1`: `[typeId]`).
 * `query` may be given as the function that builds it: with a kept statement it is then only
 * built when that statement is not kept yet.
 */
export async function listPage<DB, TB extends keyof DB, O>(
  // biome-ignore lint/suspicious/noExplicitAny: the caller's database, any schema.
  db: Kysely<any>,
  query: SelectQueryBuilder<DB, TB, O> | (() => SelectQueryBuilder<DB, TB, O>),
  list: ListQuery,
  options: ListOptions,
  kept?: StatementCache | { statements: StatementCache; key: string; params: readonly unknown[] },
): Promise<ListResult<O>> {
  const page = list.page ?? 1;
  const pageSize = Math.min(list.pageSize ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const {
    planned,
    sorts,
    search,
    pattern,
    shape: readShape,
  } = readListQuery(list, options, Boolean(kept) && !options.unpaged);
  const build = () => {
    // biome-ignore lint/suspicious/noExplicitAny: generic over the caller's query and table.
    let q = (typeof query === "function" ? query() : query) as unknown as SelectQueryBuilder<any, any, any>;
    if (planned) q = q.where((eb) => plannedExpression(eb, planned, options));
    if (search) q = q.where((eb) => eb.or(search.map((f) => eb(fieldRef(eb, f, options), "ilike", pattern))));
    for (const [field, dir] of sorts) {
      const expression = options.expressions?.[field];
      q = expression ? q.orderBy(expression, dir) : q.orderBy(`${options.table}.${field}`, dir);
    }
    return q.orderBy(`${options.table}.id`, "asc") as SelectQueryBuilder<DB, TB, O>;
  };
  if (options.unpaged) {
    const all = (await build().execute()) as O[];
    return { rows: all, total: all.length, totalExact: true };
  }
  const paging = { limit: pageSize, offset: (page - 1) * pageSize };
  const shape = kept && readShape;
  if (!kept || !shape) return pageWithTotal<O>(db, build(), paging);
  const base = kept instanceof StatementCache ? { statements: kept, key: "", params: [] } : kept;
  const params = [...base.params, ...shape.params];
  return pageWithTotal<O>(db, build, paging, {
    statements: base.statements,
    key: `list:${base.key}:${shape.shape}`,
    params: [...params, EXACT_COUNT_CAP + 1, ...params, paging.limit, paging.offset],
  });
}

/** A list query's filters, sort and search as read and checked, and its statement's shape. */
interface ReadListQuery {
  planned: PlannedFilter | null;
  sorts: Array<[string, "asc" | "desc"]>;
  search: readonly string[] | null;
  pattern: string;
  shape: { shape: string; params: unknown[] } | null;
}

/**
 * Queries read so far, by list options and spelling: a list screen asks the same filters,
 * sort and search again and again (each page, each refresh), and reading them (JSON, checks,
 * the plan, the shape) was a twentieth of a list request's time in node. Reading is pure, so
 * a kept reading is the same as a new one; a query that fails to read is not kept. Bounded:
 * the oldest spelling goes first, and long ones are not kept. Only for lists whose statements
 * are kept (their options are one object per resource, not one per request).
 */
const readQueries = new WeakMap<ListOptions, Map<string, ReadListQuery>>();
const MAX_READ_QUERIES = 256;
const MAX_READ_KEY = 2000;

function readListQuery(list: ListQuery, options: ListOptions, keep: boolean): ReadListQuery {
  const key = `${list.sort ?? ""}\u0000${list.q ?? ""}\u0000${list.filters ?? ""}`;
  let kept = readQueries.get(options);
  const known = kept?.get(key);
  if (known) return known;
  const filters = parseFilters(list.filters);
  const planned = filters.length ? planFilters(filters, options) : null;
  const sorts = parseSort(
    list.sort || options.defaultSort,
    options.sortFields ?? [options.defaultSort.replace(/^-/, "")],
  );
  const search = options.search && list.q ? options.search : null;
  const pattern = list.q ? `%${escapeLike(list.q)}%` : "";
  const read = {
    planned,
    sorts,
    search,
    pattern,
    shape: keptShape(planned, search, sorts, pattern, options),
  };
  if (keep && key.length <= MAX_READ_KEY) {
    if (!kept) {
      kept = new Map();
      readQueries.set(options, kept);
    }
    if (kept.size >= MAX_READ_QUERIES) kept.delete(kept.keys().next().value as string);
    kept.set(key, read);
  }
  return read;
}

/**
 * A list statement's shape and the values its WHERE binds, in order; null when one of its
 * fields is an expression (it may bind values of its own).
 */
function keptShape(
  planned: PlannedFilter | null,
  search: readonly string[] | null,
  sorts: Array<[string, "asc" | "desc"]>,
  pattern: string,
  options: ListOptions,
): { shape: string; params: unknown[] } | null {
  const { expressions } = options;
  const isColumn = (field: string) => !expressions || !Object.hasOwn(expressions, field);
  if (!sorts.every(([field]) => isColumn(field)) || (search && !search.every(isColumn))) return null;
  const where = planned ? plannedShape(planned, options) : { shape: "", params: [] };
  if (!where) return null;
  const sort = sorts.map(([field, dir]) => `${dir === "desc" ? "-" : ""}${field}`).join(",");
  return {
    shape: `${where.shape}|${search ? "q" : ""}|${sort}`,
    params: search ? [...where.params, ...search.map(() => pattern)] : where.params,
  };
}
