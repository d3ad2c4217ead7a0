/**
 * Every record a list query matches, in its order, read in chunks by keyset pagination: each
 * chunk is one query that starts after the last row of the previous one (its sort values and
 * id), so no query holds the database while a slow client downloads, and the server never
 * holds more than a chunk. (PGlite is one connection: a cursor open for the whole download
 * would stop every other request.)
 *
 * The order is the list's (server/http/list-query.ts): its sort fields, then `id`, with
 * PostgreSQL's default null placement (last when ascending, first when descending). A row
 * changed while an export runs may be missed or appear twice if the change moves it across
 * the chunk being read: each chunk sees the database as it is when it is read.
 */
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type { ResourceDefinition } from "../../../resources/contract";
import { filterExpression, type ListQuery, parseFilters, parseSort } from "../../http/list-query";
import { columnAllowsNull } from "../columns";
import { listOptionsOf } from "../list-options";
import type { Row } from "../records";
import type { AnyDb } from "../rules";

/** Rows per chunk: a few hundred kB of CSV, one short query each. */
export const EXPORT_CHUNK_ROWS = 1000;

interface SortKey {
  /** The column (`t.name`), or the expression of a custom field. */
  column: Expression<unknown>;
  dir: "asc" | "desc";
  nullable: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: keyset queries work on any resource table.
type AnyBuilder = ExpressionBuilder<any, any>;
// biome-ignore lint/suspicious/noExplicitAny: see AnyBuilder.
type AnySelect = SelectQueryBuilder<any, any, Row>;

const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Rows strictly after `last` in the order of `keys` (ORed prefixes: equal on the keys before,
 * after on this one), plus a range on the first key that an index can serve, so a chunk deep
 * in the table does not walk the rows before it again.
 */
function after(eb: AnyBuilder, keys: SortKey[], last: Array<string | null>): Expression<SqlBool> {
  const ref = (k: SortKey) => k.column;
  const same = (k: SortKey, v: string | null) => (v === null ? eb(ref(k), "is", null) : eb(ref(k), "=", v));
  const beyond = (k: SortKey, v: string | null): Expression<SqlBool> => {
    if (k.dir === "desc") return v === null ? eb(ref(k), "is not", null) : eb(ref(k), "<", v);
    if (v === null) return sql<SqlBool>`false`;
    return k.nullable ? eb.or([eb(ref(k), ">", v), eb(ref(k), "is", null)]) : eb(ref(k), ">", v);
  };
  const branches = keys.map((k, i) =>
    eb.and([...keys.slice(0, i).map((p, j) => same(p, last[j])), beyond(k, last[i])]),
  );
  const [first] = keys;
  const v = last[0];
  const range =
    first.dir === "desc"
      ? v === null
        ? sql<SqlBool>`true`
        : eb(ref(first), "<=", v)
      : v === null
        ? eb(ref(first), "is", null)
        : first.nullable
          ? eb.or([eb(ref(first), ">=", v), eb(ref(first), "is", null)])
          : eb(ref(first), ">=", v);
  return eb.and([range, eb.or(branches)]);
}

/**
 * The chunks of rows a list query matches (raw rows, `t.*`), in order. Reads the first chunk
 * before returning, so that a bad query (unknown filter field, bad sort) is an error of this
 * call, answered as a 400 before any byte of the file is sent.
 */
export async function readChunks(
  db: AnyDb,
  def: ResourceDefinition,
  query: ListQuery,
  chunkRows = EXPORT_CHUNK_ROWS,
): Promise<AsyncGenerator<Row[]>> {
  const { schema } = def;
  const options = listOptionsOf(schema);
  const column = (field: string) => options.expressions?.[field] ?? sql.ref(`t.${field}`);
  const sorts = parseSort(query.sort || options.defaultSort, options.sortFields ?? []);
  const filters = parseFilters(query.filters);
  const keys: SortKey[] = [
    ...sorts.map(([field, dir]) => ({
      column: column(field),
      dir,
      nullable: columnAllowsNull(schema, field),
    })),
    { column: sql.ref("t.id"), dir: "asc", nullable: false },
  ];
  let base = db.selectFrom(`${schema["x-table"]} as t`).selectAll("t") as AnySelect;
  if (filters.length) base = base.where((eb) => filterExpression(eb, filters, options));
  const search = options.search;
  if (search && query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    base = base.where((eb) => eb.or(search.map((f) => eb(column(f), "ilike", pattern))));
  }
  // Sort values as text: a timestamp's microseconds survive (a JavaScript Date would drop
  // them and the next chunk would skip or repeat rows), and PostgreSQL reads the text back
  // as the column's type when it is compared with the column.
  base = base.select(keys.map((k, i) => sql<string | null>`(${k.column})::text`.as(`__key${i}`)));
  for (const k of keys) base = base.orderBy(k.column, k.dir);

  const chunk = async (last: Array<string | null> | null): Promise<Row[]> => {
    const q = last ? base.where((eb) => after(eb, keys, last)) : base;
    return q.limit(chunkRows).execute();
  };
  const lastKeys = (rows: Row[]) => {
    const row = rows[rows.length - 1];
    return keys.map((_, i) => row[`__key${i}`] as string | null);
  };

  const first = await chunk(null);
  async function* chunks(): AsyncGenerator<Row[]> {
    let rows = first;
    while (rows.length) {
      yield rows;
      if (rows.length < chunkRows) return;
      rows = await chunk(lastKeys(rows));
    }
  }
  return chunks();
}
