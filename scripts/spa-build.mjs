/**
 * Is the built SPA (dist/client) older than its sources? Shared by start.mjs and test-all.mjs.
 * Dependency-free on purpose: it runs before anything else is known to work.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const builtIndex = path.join(root, "dist", "client", "index.html");

/** Everything whose change changes the bundle. */
const SOURCES = [
  "src",
  "providers",
  "resources",
  "schemas",
  "public",
  "index.html",
  "vite.config.ts",
  "scripts/vite",
];

/** Newest modification time (ms) of a file or of any file below a folder; 0 when absent. */
function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Why the SPA needs a build, or null when dist/client is up to date. */
export function spaBuildReason() {
  if (!existsSync(builtIndex)) return "dist/client/index.html is missing";
  const built = statSync(builtIndex).mtimeMs;
  const changed = SOURCES.find((source) => newestMtime(path.join(root, source)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

/** Runs `vite build` with live output; returns its exit code. */
export function runViteBuild() {
  const vite = path.join(root, "node_modules", ".bin", "vite");
  const result = spawnSync(vite, ["build"], { cwd: root, stdio: "inherit" });
  if (result.error) {
    console.error(`Could not run ${vite}: ${result.error.message} (did you run npm install?)`);
    return 1;
  }
  return result.status ?? 1;
}
