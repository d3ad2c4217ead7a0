/**
 * Opens the database: PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
 * Both speak the same SQL, so migrations and queries are written once.
 */
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, type Migration, type MigrationProvider, Migrator, PostgresDialect } from "kysely";
import pg from "pg";
import { type Broadcast, localBroadcast, postgresBroadcast } from "./broadcast";
import * as platform from "./migrations/0001-platform";
import * as catalogue from "./migrations/0002-catalogue";
import * as catalogueScopedSubCategory from "./migrations/0003-catalogue-scoped-sub-category";
import * as dam from "./migrations/0004-dam";
import * as jobs from "./migrations/0005-jobs";
import * as pdfLibrary from "./migrations/0006-pdf-library";
import { PGliteDialect } from "./pglite-dialect";
import type { Database } from "./types";

export type { Database } from "./types";

/** Migrations in order. Add a file under migrations/ and list it here. */
const MIGRATIONS: Record<string, Migration> = {
  "0001-platform": platform,
  "0002-catalogue": catalogue,
  "0003-catalogue-scoped-sub-category": catalogueScopedSubCategory,
  "0004-dam": dam,
  "0005-jobs": jobs,
  "0006-pdf-library": pdfLibrary,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: "pglite" | "postgres";
  /** Messages to every instance on this database (in-process on PGlite). */
  broadcast: Broadcast;
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
  const broadcast = postgresBroadcast(url, pool);
  return {
    db,
    kind: "postgres",
    broadcast,
    close: async () => {
      await broadcast.close();
      await db.destroy();
    },
  };
}

async function openPGlite(dir = "memory://"): Promise<DatabaseHandle> {
  const dataDir = dir === "memory://" ? dir : path.join(dir, "pglite");
  const pglite = await PGlite.create(dataDir);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: "pglite",
    broadcast: localBroadcast(),
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
