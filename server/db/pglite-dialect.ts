/**
 * Kysely dialect for PGlite (PostgreSQL compiled to WASM, in process).
 *
 * PGlite is one backend with one session, so the driver hands out a single connection
 * at a time: a transaction keeps it until COMMIT/ROLLBACK, and every other query waits
 * its turn. Queries are the same SQL as on a PostgreSQL server, so the Postgres
 * adapter, compiler and introspector are reused as they are.
 */
import { type PGlite, parse, protocol } from "@electric-sql/pglite";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import { isStalePlan, preparedNameOf } from "./prepared";

/** PGlite's own (typed loosely in its declarations): its value serializers by type oid. */
type Serializers = Record<number, (value: unknown) => string>;
type Parsers = Parameters<typeof parse.parseResults>[1];

/** A statement parsed and described once on this PGlite: its name and its parameters' types. */
interface Named {
  name: string;
  types: number[];
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Named statements kept per connection, the least recently used let go past this. The app's
 * statements are a few hundred texts; a text written with a variable list (`in ($1, $2, …)`)
 * is one more per length, and those are the ones let go.
 */
const MAX_NAMED = 500;

/**
 * The one connection. Every statement with parameters runs as a named prepared statement: PGlite
 * parses it once, then each run is one call into PGlite (bind, describe, execute, sync) where its
 * `query` makes six and parses the statement again every time (for a primary-key read, two thirds
 * of its cost; bench:forms on PGlite sends about twenty kinds a batch). On PostgreSQL only the
 * statements the app marks are named (server/db/prepared.ts): there each pooled connection would
 * keep its own copy of every text, here there is one connection. Values are serialized and rows
 * parsed by PGlite's own serializers and parsers, as its `query` does. A statement whose prepared
 * form went stale (a table it reads changed shape: a runtime entity's new column) is prepared
 * again the next time, and this time sent as `query` does.
 */
export class PGliteConnection implements DatabaseConnection {
  private readonly named = new Map<string, Named>();
  /** Statements prepared, for a fresh name after one went stale. */
  private prepared = 0;

  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters, use the simple protocol so a migration may hold several statements.
    let result: { rows: unknown[]; affectedRows?: number } | undefined;
    if (query.parameters.length === 0)
      result = (await this.pg.exec(query.sql)).at(-1) ?? { rows: [], affectedRows: 0 };
    else result = await this.runNamed(query.sql, query.parameters);
    result ??= await this.pg.query<R>(query.sql, [...query.parameters]);
    const affected = result.affectedRows;
    return {
      rows: result.rows as R[],
      numAffectedRows: affected === undefined ? undefined : BigInt(affected),
    };
  }

  /** Runs a marked statement under its name; undefined when its prepared form went stale. */
  private async runNamed(text: string, params: readonly unknown[]) {
    const pg = this.pg;
    try {
      return await pg.runExclusive(async () => {
        let statement = this.named.get(text);
        if (statement) {
          // Most recently used last: the first is the one let go when the cache is full.
          this.named.delete(text);
          this.named.set(text, statement);
        } else statement = await this.prepare(text);
        const serializers = (pg as unknown as { serializers: Serializers }).serializers;
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const serialize = serializers[statement.types[i]];
          return serialize ? serialize(value) : String(value);
        });
        const { messages } = await pg.execProtocol(
          concat([
            protocol.serialize.bind({ statement: statement.name, values }),
            protocol.serialize.describe({ type: "P" }),
            protocol.serialize.execute({}),
            protocol.serialize.sync(),
          ]),
        );
        const parsers = (pg as unknown as { parsers: Parsers }).parsers;
        return parse.parseResults(messages, parsers)[0];
      });
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      this.named.delete(text);
      return undefined;
    }
  }

  /** Parses and describes `text` under a name of this connection's. */
  private async prepare(text: string): Promise<Named> {
    const name = `${preparedNameOf(text) ?? "pglite"}_${++this.prepared}`;
    if (this.named.size >= MAX_NAMED) {
      const [unused, statement] = this.named.entries().next().value as [string, Named];
      this.named.delete(unused);
      await this.pg.execProtocol(
        concat([protocol.serialize.close({ type: "S", name: statement.name }), protocol.serialize.sync()]),
      );
    }
    const { messages } = await this.pg.execProtocol(
      concat([
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync(),
      ]),
    );
    const named = { name, types: parse.parseDescribeStatementResults(messages) };
    this.named.set(text, named);
    return named;
  }

  // biome-ignore lint/correctness/useYield: streaming is not supported by PGlite's query API.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("PGlite dialect does not support streaming queries");
  }
}

/**
 * The most PGlite work in a row without a turn of the event loop (ms). PGlite answers within the
 * call, so one query's continuation starts the next in the same microtask run: a busy job queue
 * would chain statements for seconds with no turn, and connections and requests would wait
 * outside (refused, once the listen backlog is full). A turn every few milliseconds, taken by
 * whoever takes the connection next, keeps the server taking them in; the requests then wait
 * their turn for the connection like the rest.
 */
const TURN_EVERY_MS = 10;

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;
  /** When the event loop last had a turn between two of this connection's uses. */
  private turnedAt = performance.now();

  constructor(pg: PGlite) {
    this.connection = new PGliteConnection(pg);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    // Checked on taking the connection: each handing over of it continues the same microtask run.
    if (performance.now() - this.turnedAt > TURN_EVERY_MS) {
      // setImmediate runs after the loop's I/O phase: new connections and requests come in first.
      await new Promise((resolve) => setImmediate(resolve));
      this.turnedAt = performance.now();
    }
    this.release = release;
    return this.connection;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : "";
    // `read only`: a list's snapshot (server/http/list-page.ts) says it only reads.
    const mode = settings.accessMode ? ` ${settings.accessMode}` : "";
    await conn.executeQuery(CompiledQuery.raw(`begin${level}${mode}`));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = null;
    release?.();
  }

  async destroy(): Promise<void> {}
}

export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.pg);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature.
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
