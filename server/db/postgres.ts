/**
 * The PostgreSQL side of server/db: a pool that outlives its database. A restart, a failover
 * or pg_terminate_backend must never take the process down, and no request may wait on a
 * dead server without bound:
 *
 * - every pooled client gets an 'error' listener (pg emits 'error' on a client whose
 *   connection drops, idle or checked out; with no listener Node throws and the process
 *   exits). The pool drops such a client and opens a fresh one on the next query;
 * - connecting is bounded (`connectMs`), statements are bounded by the server
 *   (`statement_timeout`) and, in case the server cannot even answer, by the client
 *   (`query_timeout`, a little later); TCP keep-alive notices a silently dead peer;
 * - the errors this produces are classified by ./unavailable.ts and answered 503.
 */
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { postgresBroadcast } from "./broadcast";
import type { DatabaseHandle } from "./handle";
import { parseInstant } from "./instants";
import { PreparingClient } from "./prepared";
import type { Database } from "./types";

export interface PostgresTimeouts {
  /** Longest wait for a connection (new, or a free one from the pool), ms. */
  connectMs: number;
  /** Longest a statement may run before the server cancels it, ms. */
  statementMs: number;
}

/**
 * Generous for a back-office (no request of ours runs a statement for long), short enough
 * that a request during an outage answers 503 instead of hanging.
 */
export const DEFAULT_TIMEOUTS: PostgresTimeouts = { connectMs: 5000, statementMs: 30_000 };

/** What the client waits beyond statement_timeout before giving up on a silent server, ms. */
const CLIENT_GRACE_MS = 5000;

type ErrorListener = (error: Error) => void;

/**
 * Column types read as their text: a `date` is a calendar day (`YYYY-MM-DD`), and pg's default
 * parser makes it a Date at the server's local midnight, a day early once written as UTC east
 * of Greenwich (server/resources/records.ts reads the text). A `timestamptz` is read by a
 * faster parser that gives the same Dates (./instants.ts).
 */
const asText = (value: string) => value;
const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === pg.types.builtins.DATE) return asText;
    if (oid === pg.types.builtins.TIMESTAMPTZ && format !== "binary") return parseInstant;
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/** Connections of each pool: the requests', and the background work's (jobs, runs). */
export interface PoolSizes {
  requests: number;
  jobs: number;
}

export const DEFAULT_POOL_SIZES: PoolSizes = { requests: 10, jobs: 10 };

/**
 * Two pools: one for requests, one for the job queue and the run engine. A burst of requests
 * waiting for connections then never stalls the steps of runs (nor the other way round); each
 * side queues only behind itself.
 */
export function openPostgres(
  url: string,
  timeouts: PostgresTimeouts = DEFAULT_TIMEOUTS,
  sizes: PoolSizes = DEFAULT_POOL_SIZES,
): DatabaseHandle {
  const listeners: ErrorListener[] = [];
  const report = (error: Error) => {
    for (const listener of listeners) listener(error);
  };
  const pool = newPool(url, timeouts, sizes.requests, report);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const jobsDb = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: newPool(url, timeouts, sizes.jobs, report) }),
  });
  const broadcast = postgresBroadcast(url, pool, { connectMs: timeouts.connectMs, onError: report });
  return {
    db,
    jobsDb,
    kind: "postgres",
    broadcast,
    onConnectionError: (listener) => void listeners.push(listener),
    close: async () => {
      await broadcast.close();
      await jobsDb.destroy();
      await db.destroy();
    },
  };
}

function newPool(url: string, timeouts: PostgresTimeouts, max: number, report: ErrorListener): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.statementMs + CLIENT_GRACE_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types: typeParsers,
    // The statements of every request run prepared, once parsed per connection (./prepared.ts).
    Client: PreparingClient,
  });
  // pg-pool re-emits an idle client's error on the pool; the client listener below has
  // reported it already, and the pool has dropped the client.
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    // Covers checked-out clients too: their query rejects (the request answers 503), and the
    // pool drops them on release because they are no longer queryable.
    client.on("error", report);
  });
  return pool;
}

/**
 * Runs `migrate` on a connection of its own, without the statement timeout: building an index
 * on a large table may rightly take longer than any request should.
 */
export async function migratePostgres(
  url: string,
  migrate: (db: Kysely<Database>) => Promise<void>,
  timeouts: PostgresTimeouts = DEFAULT_TIMEOUTS,
): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: timeouts.connectMs });
  // A lost connection fails the migration's query (start-up stops with the reason); without
  // these listeners it would throw from an event emitter instead.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrate(db);
  } finally {
    await db.destroy();
  }
}
