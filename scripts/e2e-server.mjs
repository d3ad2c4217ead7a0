/**
 * The e2e web server (playwright.config.ts `webServer`): the real server on a fresh, empty
 * DATA_DIR (so every run starts from a first start: new database, first admin from
 * ADMIN_EMAIL/ADMIN_PASSWORD), deleted again when the server stops.
 * Expects the SPA to be built already (npm test builds it first).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-e2e-"));
console.log(`[e2e server] DATA_DIR=${dataDir}`);

// The BigCommerce stand-in the Online store specs connect to (BIGCOMMERCE_API_URL points at it).
const store = spawn(process.execPath, ["--import", "tsx", "tests/e2e/fake-store.ts"], {
  cwd: root,
  env: process.env,
  stdio: ["ignore", "inherit", "inherit"],
});

// Own process group: Playwright signals our group on teardown, and we pass the signal on once.
const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir },
  stdio: ["ignore", "inherit", "inherit"],
  detached: true,
});

const alive = () => server.exitCode === null && server.signalCode === null;
let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  if (alive()) server.kill(signal);
  if (store.exitCode === null) store.kill("SIGTERM");
  // A server that ignores the signal is killed before Playwright gives up on us.
  setTimeout(() => alive() && server.kill("SIGKILL"), 8000).unref();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stop(signal));

// If the test runner dies without stopping us, stop anyway.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop("SIGTERM"), 1000).unref();

process.on("exit", () => {
  if (alive()) server.kill("SIGKILL");
  if (store.exitCode === null) store.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});
server.on("error", (error) => {
  console.error(`[e2e server] could not start: ${error.message}`);
  process.exit(1);
});
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
