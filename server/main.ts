/** Entry point: config → lock → database → app → listen; graceful shutdown on SIGTERM/SIGINT. */
import { buildApp } from "./app";
import { type Config, ConfigError, loadConfig } from "./config";
import { type DatabaseHandle, openDatabase } from "./db";
import { isDatabaseUnavailable } from "./db/unavailable";
import { lockDataDirOrExit } from "./lock";

/** How long start-up waits for a PostgreSQL server that is not reachable yet, ms. */
const DATABASE_START_WAIT_MS = 60_000;

/**
 * Opens the database. PostgreSQL may still be starting (services started together, a
 * failover in progress): an unreachable server is retried with backoff for a bounded time
 * before start-up gives up; any other error stops start-up at once.
 */
async function openWhenReachable(config: Config): Promise<DatabaseHandle> {
  const deadline = Date.now() + DATABASE_START_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await openDatabase({
        databaseUrl: config.databaseUrl,
        pgliteDir: config.dataDir,
        poolSizes: config.databasePools,
      });
    } catch (error) {
      if (!config.databaseUrl || !isDatabaseUnavailable(error) || Date.now() > deadline) throw error;
      const waitMs = Math.min(250 * 2 ** attempt, 5000);
      const reason = error instanceof Error ? error.message : String(error);
      process.stderr.write(`Waiting for the database (${reason}); trying again in ${waitMs} ms\n`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    process.loadEnvFile?.(".env");
  } catch {
    // no .env file: environment only
  }
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }

  // PGlite: one process per DATA_DIR; a second one exits 75 naming the holder.
  const release = config.databaseUrl ? () => {} : lockDataDirOrExit(config.dataDir);

  const database = await openWhenReachable(config);
  const { app } = await buildApp({ config, database });
  // Last line of defence: a rejected promise nobody awaited (a background task hitting a
  // database that went away, say) must not take every request down with the process.
  // Such a rejection is a bug to fix, so it is logged as an error.
  process.on("unhandledRejection", (reason) => {
    app.log.error({ err: reason }, "unhandled promise rejection");
  });

  let closing = false;
  /** How long requests in flight may take to finish once a shutdown begins. */
  const SHUTDOWN_GRACE_MS = 10_000;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: finishing requests in flight");
    // A client that stops reading a response would hold the close for minutes: it gets a grace.
    setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    try {
      await app.close();
      await database.close();
    } finally {
      release();
      process.exit(0);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Atelier is running: ${config.publicUrl}/manage (database: ${database.kind})`);
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(78);
  }
  process.stderr.write(`Atelier failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
