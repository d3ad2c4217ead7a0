/** Entry point: config → lock → database → app → listen; graceful shutdown on SIGTERM/SIGINT. */
import { buildApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { openDatabase } from "./db";
import { DataDirLockedError, lockDataDir } from "./lock";

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

  let release = () => {};
  if (!config.databaseUrl) {
    try {
      release = lockDataDir(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirLockedError) {
        process.stderr.write(`${error.message}\n`);
        process.exit(75);
      }
      throw error;
    }
  }

  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.dataDir });
  const { app } = await buildApp({ config, database });

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
  process.stderr.write(`Atelier failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
