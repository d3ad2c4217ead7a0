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

/** Texts of inserts sent together (Inserts.send), by their parts' texts: built once each. */
const togetherTexts = new Map<string, string>();
/** Combinations kept: a caller sends few (a batch of answers: mails, deliveries, their jobs). */
const MAX_TOGETHER = 32;

/**
 * Statements of insertRows gathered in a transaction and sent as one: all but the last run as
 * CTEs of the last, so three tables' rows cost one round trip, not three (a batch of form
 * answers writes its mails, webhook deliveries and their jobs so: bench:forms on PostgreSQL is
 * bound by the batch's round trips). The parts share one snapshot: none may need to read what
 * another writes (a foreign key between them is fine: it is checked at the statement's end),
 * and their rows' ids are the callers' own (`randomUUID()`), so nothing needs `returning`.
 *
 * @example
 * const together = new Inserts();
 * await ctx.mailer.queue(mails, trx, together);
 * await ctx.webhooks.queueMany(moduleId, event, payloads, trx, together);
 * await together.send(trx);
 */
export class Inserts {
  private readonly parts: CompiledQuery[] = [];

  /** Adds one insertRows statement (one parameter, `$1`). */
  add(query: CompiledQuery): void {
    const marks = query.sql.match(/\$\d+/g) ?? [];
    if (query.parameters.length !== 1 || marks.length !== 1 || marks[0] !== "$1")
      throw new Error("Inserts: only statements of insertRows (one parameter, $1) go together");
    this.parts.push(query);
  }

  /** Sends what was added, in one statement (nothing when nothing was). */
  async send(db: { executeQuery(query: CompiledQuery): Promise<unknown> }): Promise<void> {
    const parts = this.parts.splice(0);
    if (parts.length <= 1) {
      if (parts[0]) await db.executeQuery(parts[0]);
      return;
    }
    const key = parts.map((p) => p.sql).join("\u0000");
    let text = togetherTexts.get(key);
    if (text === undefined) {
      const numbered = parts.map((p, i) => p.sql.replace("$1", `$${i + 1}`));
      const last = numbered.pop() as string;
      text = `with ${numbered.map((t, i) => `"together_${i}" as (${t})`).join(", ")} ${last}`;
      if (togetherTexts.size < MAX_TOGETHER) {
        togetherTexts.set(key, text);
        prepareStatement(text);
      }
    }
    await db.executeQuery(
      CompiledQuery.raw(
        text,
        parts.map((p) => p.parameters[0]),
      ),
    );
  }
}
