/**
 * The app started inside the test process (its own port, in-memory PGlite, the built SPA), for
 * specs that need what only the server's own services can do — such as a module notifying a
 * user (server/notifications) before any screen of that module exists. The spec then drives
 * the real SPA in Chromium against it and calls the same services a module would, in place of
 * a test-only HTTP route (there are none).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type App, buildApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import { openDatabase } from "../../server/db";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./env";

export interface InProcessServer extends App {
  /** `http://127.0.0.1:<port>`; the SPA is under `/manage/`. */
  origin: string;
  close(): Promise<void>;
}

export async function startInProcessServer(): Promise<InProcessServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-e2e-inproc-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    CLIENT_DIR: path.resolve(import.meta.dirname, "../../dist/client"),
    PUBLIC_URL: "http://127.0.0.1",
  });
  const database = await openDatabase({ databaseUrl: null, pgliteDir: "memory://" });
  const built = await buildApp({
    config,
    database,
    logger: process.env.INPROC_LOG ? { level: "debug" } : false,
  });
  await built.app.listen({ port: 0, host: "127.0.0.1" });
  const address = built.app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    ...built,
    origin: `http://127.0.0.1:${port}`,
    async close() {
      const closing = built.app.close();
      built.app.server.closeAllConnections();
      await closing;
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
