/** Entry point: config → lock → database → app → listen; graceful shutdown on SIGTERM/SIGINT. */
import { buildApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { openDatabase } from "./db";
import { lockDataDirOrExit } from "./lock";

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

  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.dataDir });
  const { app } = await buildApp({ config, database });
  // Last line of defence: a rejected promise nobody awaited (a background task hitting a
  // database that went away, say) must not take every request down with the process.
  // Such a rejection is a bug to fix, so it is logged as an error.
  process.on("unhandledRejection", (reason) => {
    app.log.error({ err: reason }, "unhandled promise rejection");
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: finishing requests in flight");
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
