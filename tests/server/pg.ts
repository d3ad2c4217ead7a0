/**
 * One fresh PostgreSQL database per test file, on the server found by global-setup.ts.
 *
 * @example
 * const pgUrl = inject("pgUrl");
 * describe.skipIf(!pgUrl)("on PostgreSQL", () => {
 *   let db: TestDatabase;
 *   beforeAll(async () => { db = await createTestDatabase(pgUrl!); });
 *   afterAll(() => db.drop());
 * });
 */
import { randomBytes } from "node:crypto";
import { withPgClient } from "../../scripts/pg-cluster";
import { type DatabaseHandle, openDatabase } from "../../server/db";

export interface TestDatabase {
  /** Connection URL of the new, empty database. */
  url: string;
  /** Drops the database, closing whatever connections are still open on it. */
  drop(): Promise<void>;
}

/**
 * Creates a uniquely named database on the server behind `adminUrl` and returns its URL: empty,
 * or a copy of `template` (global-setup.ts makes a migrated one).
 */
export async function createTestDatabase(adminUrl: string, template?: string | null): Promise<TestDatabase> {
  const name = `atelier_test_${process.pid}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  // The name is ours (letters, digits, underscores): safe to quote as an identifier.
  const from = template ? ` TEMPLATE "${template}"` : "";
  await withPgClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"${from}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await withPgClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    },
  };
}

/** A fresh database for `driver`: PGlite in memory, or a new database on the PostgreSQL server. */
export interface DriverDatabase {
  database: DatabaseHandle;
  /** The PostgreSQL database (null on PGlite): for more handles on it, as other instances. */
  pg: TestDatabase | null;
  /** Closes the handle, then drops the PostgreSQL database. */
  close(): Promise<void>;
}

export async function openDriverDatabase(
  driver: "pglite" | "postgres",
  pgUrl: string | null | undefined,
): Promise<DriverDatabase> {
  const pgDatabase = driver === "postgres" ? await createTestDatabase(pgUrl as string) : null;
  const database = await openDatabase(
    pgDatabase ? { databaseUrl: pgDatabase.url } : { databaseUrl: null, pgliteDir: "memory://" },
  );
  return {
    database,
    pg: pgDatabase,
    async close() {
      await database.close();
      if (!pgDatabase) return;
      // pg's pool.end() resolves before its sockets are closed; a forced DROP DATABASE right
      // away can reach a closing client as an unhandled FATAL (57P01).
      await new Promise((r) => setTimeout(r, 100));
      await pgDatabase.drop();
    },
  };
}

/**
 * Two database handles as two instances would hold them: on PostgreSQL two pools on one fresh
 * database, on PGlite one in-memory database (single-process, so both names are the same handle).
 */
export async function twoInstanceHandles(
  driver: "pglite" | "postgres",
  pgUrl: string | null,
): Promise<{ database: DatabaseHandle; other: DatabaseHandle; close: () => Promise<void> }> {
  if (driver === "postgres") {
    const pgDatabase = await createTestDatabase(pgUrl as string);
    const database = await openDatabase({ databaseUrl: pgDatabase.url });
    const other = await openDatabase({ databaseUrl: pgDatabase.url });
    return {
      database,
      other,
      close: async () => {
        await other.close();
        await database.close();
        await pgDatabase.drop();
      },
    };
  }
  const database = await openDatabase({ databaseUrl: null, pgliteDir: "memory://" });
  return { database, other: database, close: () => database.close() };
}
