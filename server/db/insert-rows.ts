/**
 * One INSERT of any number of rows whose text does not depend on how many. The rows travel as
 * one JSON array, read back into the columns' types by `jsonb_to_recordset`:
 *
 *   insert into "t" ("a", "b") select "a", "b"
 *   from jsonb_to_recordset(cast($1 as text)::jsonb) as r("a" uuid, "b" jsonb)
 *
 * A VALUES list of n rows is a new text of n × columns parameters each time: compiled by Kysely,
 * parsed and planned by the database, every time. This text is the same for one row or two
 * hundred, so it runs as a named prepared statement (server/db/prepared.ts), parsed and planned
 * once per connection; a jsonb column's value goes in as it is, not as JSON text inside JSON.
 * For the statements written per batch of public submissions (bench:forms).
 *
 * Rows are inserted, and `returning` answers them, in the order given (one function scan feeding
 * the insert, as a VALUES list does).
 *
 * Callers give new rows their `id` (`randomUUID()`) rather than leave it to the column's default:
 * PGlite's gen_random_uuid() opens, reads and closes /dev/urandom through its file system
 * emulation for every row, several times the cost of the uuid itself.
 *
 * @example
 * const { rows } = await db.executeQuery(
 *   insertRows("webhook_deliveries", { webhook_id: "uuid", event: "text", payload: "jsonb" }, deliveries, "returning id"),
 * );
 */
import { CompiledQuery } from "kysely";
import { prepareStatement } from "./prepared";

/** The PostgreSQL type a column's values are read as. */
export type ColumnType = "uuid" | "text" | "integer" | "boolean" | "jsonb" | "timestamptz";

/** Statement texts by table, columns and tail: built once each. */
const texts = new Map<string, string>();

const quoted = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`insertRows: "${name}" is not a plain identifier`);
  return `"${name}"`;
};

function textOf(table: string, columns: Record<string, ColumnType>, tail: string): string {
  const key = `${table}\u0000${JSON.stringify(columns)}\u0000${tail}`;
  let text = texts.get(key);
  if (text === undefined) {
    const names = Object.keys(columns).map(quoted).join(", ");
    // A jsonb column's null is JSON null, as JSON.stringify of the value itself would write it.
    const values = Object.entries(columns)
      .map(([name, type]) => (type === "jsonb" ? `coalesce(${quoted(name)}, 'null'::jsonb)` : quoted(name)))
      .join(", ");
    const typed = Object.entries(columns)
      .map(([name, type]) => `${quoted(name)} ${type}`)
      .join(", ");
    text = `insert into ${quoted(table)} (${names}) select ${values} from jsonb_to_recordset(cast($1 as text)::jsonb) as r(${typed})${tail ? ` ${tail}` : ""}`;
    texts.set(key, text);
    prepareStatement(text);
  }
  return text;
}

/**
 * The rows as JSON. A lone UTF-16 surrogate (a broken emoji in pasted text) is not valid in
 * jsonb; sent as a text parameter it became U+FFFD, so it becomes U+FFFD here too.
 */
function rowsJson(rows: readonly Record<string, unknown>[]): string {
  const json = JSON.stringify(rows);
  // JSON.stringify writes a lone surrogate, and only that, as a \uD8xx–\uDFxx escape.
  if (!/\\u[dD][89a-fA-F]/.test(json)) return json;
  return JSON.stringify(rows, (_key, value) =>
    typeof value === "string" ? (value as string & { toWellFormed(): string }).toWellFormed() : value,
  );
}

/**
 * The statement inserting `rows` (each with a value, or null/undefined, for every column) into
 * `table`. A jsonb column's value is the value itself, never its JSON text; its null (or
 * undefined) is JSON null, never SQL NULL. `tail` follows
 * the select: `on conflict …`, `returning …` (a fixed text: values go in the rows).
 */
export function insertRows<R = unknown>(
  table: string,
  columns: Record<string, ColumnType>,
  rows: readonly Record<string, unknown>[],
  tail = "",
): CompiledQuery<R> {
  return CompiledQuery.raw(textOf(table, columns, tail), [rowsJson(rows)]) as CompiledQuery<R>;
}
