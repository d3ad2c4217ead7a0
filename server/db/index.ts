/**
 * Opens the database: PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
 * Both speak the same SQL, so migrations and queries are written once.
 */
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, type Migration, type MigrationProvider, Migrator, PostgresDialect } from "kysely";
import pg from "pg";
import * as platform from "./migrations/0001-platform";
import * as catalogue from "./migrations/0002-catalogue";
import { PGliteDialect } from "./pglite-dialect";
import type { Database } from "./types";

export type { Database } from "./types";

/** Migrations in order. Add a file under migrations/ and list it here. */
const MIGRATIONS: Record<string, Migration> = {
  "0001-platform": platform,
  "0002-catalogue": catalogue,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres:// URL; when null, PGlite is used. */
  databaseUrl: string | null;
  /** PGlite data folder; "memory://" keeps it in memory (tests). */
  pgliteDir?: string;
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const handle = options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : await openPGlite(options.pgliteDir);
  await migrate(handle.db);
  return handle;
}

function openPostgres(url: string): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: "postgres", close: () => db.destroy() };
}

async function openPGlite(dir = "memory://"): Promise<DatabaseHandle> {
  const dataDir = dir === "memory://" ? dir : path.join(dir, "pglite");
  const pglite = await PGlite.create(dataDir);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: "pglite",
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

export async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider, migrationTableName: "atelier_migrations" });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "");
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${reason}`);
  }
}
