/**
 * Named prepared statements on PostgreSQL for the statements the app sends on every request
 * (a resource's get, create and update, server/resources/statements.ts). Each pooled
 * connection parses and plans such a statement once; after that a request only binds and
 * executes it. Unnamed statements, which everything else sends, are parsed and planned every
 * time: for a one-row insert or a primary-key read that is a large part of the database's work.
 *
 * A prepared `select *` or `returning *` is refused by PostgreSQL ("cached plan must not change
 * result type") once its table gained or lost a column: another instance migrated during a
 * rolling restart. That connection then sends the statement unnamed again, as before, and
 * the answer simply carries the new column. The same happens behind a pooler that hands one
 * client's statements to several server connections (PgBouncer in transaction mode): a name
 * the server does not know, or knows already, sends that statement unnamed from then on.
 */
import pg from "pg";

/** Statement text → its name; a name is the same on every connection and never reused. */
const names = new Map<string, string>();
/**
 * Named statements whose `timestamptz` values come as PostgreSQL's text, not Dates: a
 * resource's list page, whose rows only become API records (instants written as ISO text,
 * server/db/instants.ts `instantText`). Making 50 Dates a page to write them out again was a
 * tenth of a list request's time in node.
 */
const instantsAsText = new Set<string>();
/** Far more than the app's statements (a few per resource): a bound on a mistake, not a limit. */
const MAX_PREPARED = 5000;

/** Marks a statement text to run as a named prepared statement on PostgreSQL. */
export function prepareStatement(text: string, options: { instantsAsText?: boolean } = {}): void {
  // Text instants only while every caller of this text asked for them.
  if (!options.instantsAsText) instantsAsText.delete(text);
  if (names.has(text) || names.size >= MAX_PREPARED) return;
  names.set(text, `atelier_${names.size + 1}`);
  if (options.instantsAsText) instantsAsText.add(text);
}

/** The name a marked statement runs under (PGlite's connection too, server/db/pglite-dialect.ts). */
export const preparedNameOf = (text: string): string | undefined => names.get(text);

const asText = (value: string) => value;

/**
 * A named statement the connection cannot run as such: "cached plan must not change result
 * type" (0A000), "prepared statement … does not exist" (26000) or "… already exists" (42P05).
 * Each is raised before the statement runs, so sending it again unnamed is safe.
 */
export function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code === "26000" || code === "42P05") return true;
  // 0A000 is "feature not supported" at large: only this one of them.
  return code === "0A000" && /cached plan/.test(message ?? "");
}

type QueryArgs = Parameters<pg.Client["query"]>;
type Callback = (error: Error | null, result?: pg.QueryResult) => void;
type SentQuery = pg.Query & { name?: string; callback?: Callback };

/** Copied by `slice` for each result's rows: an array V8 allocates with no allocation site. */
const NO_ROWS: readonly unknown[] = Object.freeze([]);

/**
 * A pg Query whose result collects its rows in an array V8 never pretenures. pg makes each
 * result's `rows` with one `[]` literal (pg/lib/result.js): one allocation site for every query
 * of the process. Under load V8 finds that site's arrays alive at a scavenge and from then on
 * allocates them in the old generation, for good (the app's heap is large enough that V8 never
 * takes the decision back). An old array keeps the rows pushed into it, their parsed jsonb and
 * their strings, alive through every scavenge until the next full collection: on the form
 * submissions list (PostgreSQL) 32 of 36 MB of rows were promoted, each scavenge took 5–30 ms
 * instead of one, and the collector was a tenth of the node process's time. `slice` allocates
 * a new array in the young generation without an allocation site, so no decision applies.
 */
function youngRowsQuery(text: string, values: unknown[], types?: unknown): SentQuery {
  const query = new pg.Query(text, values) as SentQuery & {
    types?: unknown;
    _result?: { rows: unknown[]; _types?: unknown };
  };
  // pg's own field: should a later pg name it otherwise, the query goes pg's own way again
  // (its rows in pg's array, the types given in the config).
  const result = query._result;
  if (!result) return types ? new pg.Query({ text, types } as never, values) : query;
  result.rows = NO_ROWS.slice();
  // Set here rather than given in a `{ text, types }` config, which pg copies property by
  // property (a hundredth of a list request's time in node).
  if (types) query.types = result._types = types;
  return query;
}

/** How a named statement's rows are read on a connection, as its first answer described them. */
interface Described {
  fields: pg.FieldDef[];
  types: unknown;
  parsers: unknown[];
  prebuilt: object;
}

/** pg's Query as its own code knows it (pg/lib/query.js): the fields describeAsBefore uses. */
type DescribedQuery = SentQuery & {
  described?: Map<string, Described>;
  handleRowDescription(msg: { fields: pg.FieldDef[] }): void;
  callback?: Callback;
  listeners(event: string): unknown[];
  _accumulateRows?: boolean;
  _result: {
    command: unknown;
    fields: pg.FieldDef[];
    _types: unknown;
    _parsers?: unknown[];
    _prebuiltEmptyResultObject?: object | null;
    addFields(fields: pg.FieldDef[]): void;
  };
};

const sameFields = (a: readonly pg.FieldDef[], b: readonly pg.FieldDef[]) =>
  a.length === b.length &&
  a.every((f, i) => f.name === b[i].name && f.dataTypeID === b[i].dataTypeID && f.format === b[i].format);

/** pg's own handleRowDescription (not in its types). */
const pgDescribe = (pg.Query.prototype as unknown as Partial<Pick<DescribedQuery, "handleRowDescription">>)
  .handleRowDescription;

/**
 * pg's handleRowDescription for a named statement, which PostgreSQL describes the same way every
 * time (a statement whose result changed shape is refused as a stale plan, isStalePlan): the
 * parsers and empty row made for its first answer on this connection are used again, instead
 * of looking up a parser per column and building the row's shape for every answer (pg's
 * addFields, the largest of pg's own work per statement in the run engine).
 */
function describeAsBefore(this: DescribedQuery, msg: { fields: pg.FieldDef[] }): void {
  const result = this._result;
  const known = this.described?.get(this.name ?? "");
  if (
    known &&
    known.types === result._types &&
    result.command === null &&
    sameFields(known.fields, msg.fields)
  ) {
    result.fields = msg.fields;
    result._parsers = known.parsers;
    result._prebuiltEmptyResultObject = known.prebuilt;
    this._accumulateRows = Boolean(this.callback) || !this.listeners("row").length;
    return;
  }
  pgDescribe?.call(this, msg);
  if (!result._parsers || !result._prebuiltEmptyResultObject) return;
  this.described?.set(this.name ?? "", {
    fields: msg.fields,
    types: result._types,
    parsers: result._parsers,
    prebuilt: result._prebuiltEmptyResultObject,
  });
}

/** The pool's client: a marked statement sent as text and values runs under its name. */
export class PreparingClient extends pg.Client {
  /** How each named statement's rows are read here (describeAsBefore). */
  private readonly described = new Map<string, Described>();
  /** Names whose prepared form went stale on this connection: sent unnamed from then on. */
  private readonly stale = new Set<string>();
  /** This connection's type parsers, with `timestamptz` left as text (instantsAsText). */
  private readonly textInstants = {
    getTypeParser: (oid: number, format?: string) =>
      oid === pg.types.builtins.TIMESTAMPTZ && format !== "binary"
        ? asText
        : this.getTypeParser(oid, format as "text"),
  };

  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes them through.
  override query(...args: any[]): any {
    const [text, values, callback] = args as [unknown, unknown[], unknown];
    const plain = args.length === 2 || (args.length === 3 && typeof callback === "function");
    if (!plain || typeof text !== "string" || !Array.isArray(values))
      return super.query(...(args as QueryArgs));
    const name = names.get(text);
    if (typeof callback === "function") {
      // pg.Pool#query passes a callback.
      this.submit(name, text, values, callback as Callback);
      return undefined;
    }
    // Kysely asks for a promise.
    return new Promise<pg.QueryResult>((resolve, reject) =>
      this.submit(name, text, values, (error, result) =>
        error ? reject(error) : resolve(result as pg.QueryResult),
      ),
    );
  }

  /**
   * Sends a statement, under its name when it has one that is not stale here. Built as a
   * Query object, not a `{ name, text, values }` config, which pg would copy property by
   * property on every call; its rows in a young array (youngRowsQuery).
   */
  private submit(name: string | undefined, text: string, values: unknown[], done: Callback): void {
    if (name === undefined || this.stale.has(name)) {
      const query = youngRowsQuery(text, values);
      query.callback = done;
      super.query(query);
      return;
    }
    const query = youngRowsQuery(text, values, instantsAsText.has(text) ? this.textInstants : undefined);
    query.name = name;
    // pg's own fields again: only where they are as this was written for.
    const described = query as DescribedQuery;
    if (described._result && pgDescribe) {
      described.described = this.described;
      described.handleRowDescription = describeAsBefore;
    }
    query.callback = (error, result) => {
      if (!error || !isStalePlan(error)) return done(error, result);
      this.stale.add(name);
      this.submit(undefined, text, values, done);
    };
    super.query(query);
  }
}
