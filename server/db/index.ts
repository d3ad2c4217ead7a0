/**
 * Opens the database: PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
 * Both speak the same SQL, so migrations and queries are written once.
 */
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, Migrator } from "kysely";
import { localBroadcast } from "./broadcast";
import type { DatabaseHandle } from "./handle";
import { folderMigrations } from "./migration-folder";
import { PGliteDialect } from "./pglite-dialect";
import { PGLITE_EXTENSIONS } from "./pglite-extensions";
import { migratePostgres, openPostgres, type PoolSizes, type PostgresTimeouts } from "./postgres";
import type { Database } from "./types";

export type { DatabaseHandle } from "./handle";
export type { Database } from "./types";

/** Every file of migrations/, in order of its number: adding a migration is adding its file. */
const provider = folderMigrations();

export interface OpenOptions {
  /** postgres:// URL; when null, PGlite is used. */
  databaseUrl: string | null;
  /** PGlite data folder; "memory://" keeps it in memory (tests). */
  pgliteDir?: string;
  /** PostgreSQL: bounds on connecting and on statements (server/db/postgres.ts has the defaults). */
  timeouts?: PostgresTimeouts;
  /**
   * PGlite: a data folder to start from (a `dumpDataDir()` tarball), instead of an empty one.
   * Tests start each server from one migrated copy: creating a cluster and migrating it takes
   * seconds, loading the copy a fraction of that. Ignored on PostgreSQL.
   */
  pgliteTemplate?: Blob;
  /** PostgreSQL: connections of the requests' pool and of the jobs' (default 10 each). */
  poolSizes?: PoolSizes;
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    await migratePostgres(options.databaseUrl, migrate, options.timeouts);
    return openPostgres(options.databaseUrl, options.timeouts, options.poolSizes);
  }
  const handle = await openPGlite(options.pgliteDir, options.pgliteTemplate);
  await migrate(handle.db);
  return handle;
}

async function openPGlite(dir = "memory://", template?: Blob): Promise<DatabaseHandle> {
  const dataDir = dir === "memory://" ? dir : path.join(dir, "pglite");
  const pglite = await PGlite.create(dataDir, {
    extensions: PGLITE_EXTENSIONS,
    ...(template ? { loadDataDir: template } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    jobsDb: db,
    kind: "pglite",
    broadcast: localBroadcast(),
    onConnectionError: () => {}, // in-process: there is no connection to lose
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
    // The cause is kept: start-up tells "database not reachable yet" from a broken migration.
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${reason}`, { cause: error });
  }
}
