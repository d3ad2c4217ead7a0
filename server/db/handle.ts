/**
 * An open database, as openDatabase() (index.ts) answers it on either engine. Apart from
 * index.ts so the engines' openers (postgres.ts) return it without importing index.ts back.
 */
import type { Kysely } from "kysely";
import type { Broadcast } from "./broadcast";
import type { Database } from "./types";

export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * The job queue's and run engine's database: on PostgreSQL a pool of its own (postgres.ts),
   * on PGlite `db` itself (one connection, one process).
   */
  jobsDb: Kysely<Database>;
  kind: "pglite" | "postgres";
  /** Messages to every instance on this database (in-process on PGlite). */
  broadcast: Broadcast;
  /** Called when a connection is lost (PostgreSQL); the handle recovers by itself, this is for the log. */
  onConnectionError(listener: (error: Error) => void): void;
  close(): Promise<void>;
}
