/**
 * A page of a list and its total, read from ONE snapshot of the database: every list answer's
 * `data` and `total` agree (docs/resource-api.md, "Totals"). Rows and a count sent as two
 * statements see two moments: under load a row committed between them gave `total: 1` with
 * `data: []`. Every list, the list contract's `listPage` and the module lists that order or
 * filter their own way, goes through `pageWithTotal`.
 *
 * How, cheapest first:
 * - one statement: the page, with the matching rows' capped count as a scalar subquery in its
 *   select list (run once, an InitPlan), so each row carries the total of the same snapshot;
 * - a page that comes back empty past the first has no row to carry it: the count and the page
 *   are then read again together in a REPEATABLE READ, READ ONLY transaction (one snapshot for
 *   both). Only a page past the end pays this;
 * - counting stops at EXACT_COUNT_CAP + 1 matches. Past that, `total` is the planner's estimate
 *   (`totalExact: false`), kept coherent with the rows it came with: never below the rows up to
 *   the end of this page, never above an empty page's offset, and exact whenever the page is
 *   not full (the rows then end within it).
 */
import { CompiledQuery, type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { StatementCache } from "../db/statements";

/** Up to this many matches the total is counted exactly; past it, the planner's estimate is used. */
export const EXACT_COUNT_CAP = 10_000;

/** The column that carries the total on each row of the page (a name no field takes). */
export const TOTAL_COLUMN = "__atelier_total";

export interface ListResult<O> {
  rows: O[];
  total: number;
  /**
   * false when the total is the planner's estimate (more than EXACT_COUNT_CAP matches): a
   * figure for the pager, at least the rows up to this page's end, at most an empty page's
   * offset. The rows themselves are always exact.
   */
  totalExact: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: a list's database and query, any schema.
type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: see AnyDb.
type AnySelect = SelectQueryBuilder<any, any, any>;

/**
 * A list's statement kept across requests (list-query.ts `listPage`): its shape's key in the
 * cache, and this request's values in the order the page's statement binds them.
 */
export interface KeptStatement {
  statements: StatementCache;
  key: string;
  params: readonly unknown[];
}

/**
 * The rows `limit`/`offset` of `query` (filtered and ordered; its select is the page's
 * columns) and the total of its matches, from one snapshot. The rows come without the
 * total's column. `query` may be given as the function that builds it, with the statement
 * kept for its shape: it is then only built when that statement is not kept yet (or for the
 * rare page past the end).
 */
export async function pageWithTotal<O>(
  db: AnyDb,
  // biome-ignore lint/suspicious/noExplicitAny: the caller's query, any tables and row type.
  query: SelectQueryBuilder<any, any, O> | (() => SelectQueryBuilder<any, any, O>),
  paging: { limit: number; offset: number },
  kept?: KeptStatement,
): Promise<ListResult<O>> {
  let built: AnySelect | undefined;
  const select = (): AnySelect => {
    built ??= (typeof query === "function" ? query() : query) as AnySelect;
    return built;
  };
  const matching = () => matchingOf(select());
  const first = await pageRows(db, select, paging, kept);
  if (first.length || paging.offset === 0) return resultOf(db, first, matching, paging);
  // Past the last page: no row carried the total. Count, and read the page again should rows
  // have arrived since, both in one snapshot. Inside a caller's transaction, in that.
  if (db.isTransaction) return pastTheEnd(db, select, matching, paging);
  return db
    .transaction()
    .setIsolationLevel("repeatable read")
    .setAccessMode("read only")
    .execute((trx) => pastTheEnd(trx, select, matching, paging));
}

type Row = Record<string, unknown>;

/**
 * The page, each row with the capped count. Run on `db`, which may be the snapshot's
 * transaction: the query's own builder would run it on the database it was built from (on
 * PGlite, waiting forever for the connection the transaction holds).
 */
async function pageRows(
  db: AnyDb,
  select: () => AnySelect,
  paging: { limit: number; offset: number },
  kept?: KeptStatement,
): Promise<Row[]> {
  const page = () =>
    select()
      .select(cappedCount(db, matchingOf(select())).as(TOTAL_COLUMN))
      .limit(paging.limit)
      .offset(paging.offset);
  const compiled = kept ? kept.statements.query(kept.key, kept.params, page) : page().compile();
  return (await db.executeQuery<Row>(compiled)).rows;
}

/** The rows `query` matches, as `select 1`: what the total counts. */
const matchingOf = (query: AnySelect) => query.clearSelect().clearOrderBy().select(sql<number>`1`.as("one"));

/** `count(*)` over at most EXACT_COUNT_CAP + 1 matching rows. */
function cappedCount(db: AnyDb, matching: AnySelect) {
  return db
    .selectFrom(matching.limit(EXACT_COUNT_CAP + 1).as("m"))
    .select(sql<number>`count(*)::int`.as("n"));
}

async function pastTheEnd<O>(
  db: AnyDb,
  select: () => AnySelect,
  matching: () => AnySelect,
  paging: { limit: number; offset: number },
): Promise<ListResult<O>> {
  const n = Number((await cappedCount(db, matching()).executeTakeFirstOrThrow()).n);
  // Counted exactly, and still past the end: nothing to read.
  if (n <= Math.min(paging.offset, EXACT_COUNT_CAP)) return resultOf(db, [], matching, paging, n);
  // Rows arrived between the first read and this snapshot (or the count stopped at its cap
  // before the offset): the page of this snapshot, with the count it carries.
  const rows = await pageRows(db, select, paging);
  return resultOf(db, rows, matching, paging, rows.length ? undefined : n);
}

/** The rows without the total's column, and the total they agree with. */
async function resultOf<O>(
  db: AnyDb,
  rows: Row[],
  matching: () => AnySelect,
  paging: { limit: number; offset: number },
  counted?: number,
): Promise<ListResult<O>> {
  const n = counted ?? (rows.length ? Number(rows[0][TOTAL_COLUMN]) : 0);
  // Deleting the last property a row got keeps its shape fast in V8.
  for (const row of rows) delete row[TOTAL_COLUMN];
  const result = (total: number, totalExact: boolean) => ({ rows: rows as O[], total, totalExact });
  if (n <= EXACT_COUNT_CAP) return result(n, true);
  const reached = paging.offset + rows.length;
  // A page that is not full ends the list: its end is the exact total.
  if (rows.length && rows.length < paging.limit) return result(reached, true);
  const estimate = Math.max(await plannedRows(db, matching()), n);
  return result(rows.length ? Math.max(estimate, reached) : Math.min(estimate, paging.offset), false);
}
/** The planner's estimate of the matching rows (no row is read). */
async function plannedRows(db: AnyDb, matching: AnySelect): Promise<number> {
  const compiled = matching.compile();
  const plan = await db.executeQuery<{ "QUERY PLAN": unknown }>(
    CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
  );
  const raw = plan.rows[0]?.["QUERY PLAN"];
  const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{
    Plan: { "Plan Rows": number };
  }>;
  return Math.round(parsed[0]?.Plan["Plan Rows"] ?? 0);
}
