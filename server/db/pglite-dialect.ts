/**
 * Kysely dialect for PGlite (PostgreSQL compiled to WASM, in process).
 *
 * PGlite is one backend with one session, so the driver hands out a single connection
 * at a time: a transaction keeps it until COMMIT/ROLLBACK, and every other query waits
 * its turn. Queries are the same SQL as on a PostgreSQL server, so the Postgres
 * adapter, compiler and introspector are reused as they are.
 */
import type { PGlite } from "@electric-sql/pglite";
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

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters, use the simple protocol so a migration may hold several statements.
    const result =
      query.parameters.length === 0
        ? ((await this.pg.exec(query.sql)).at(-1) ?? { rows: [], affectedRows: 0 })
        : await this.pg.query<R>(query.sql, [...query.parameters]);
    const affected = result.affectedRows;
    return {
      rows: result.rows as R[],
      numAffectedRows: affected === undefined ? undefined : BigInt(affected),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not supported by PGlite's query API.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("PGlite dialect does not support streaming queries");
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;

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
