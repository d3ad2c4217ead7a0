/**
 * PGlite is one process's database: a lock file of ours in DATA_DIR makes a second
 * server on the same folder fail fast, naming the pid that holds it.
 *
 * Taking it must be atomic even when several servers start at once on a stale lock (one
 * naming a dead pid, e.g. after kill -9): exactly one may win. Hence:
 *
 * - the lock file only ever appears complete: we write a temp file, then link(2) it into
 *   place (fails if a lock exists) or rename(2) it over a stale one;
 * - replacing the stale lock of dead pid P needs the guard `atelier.lock.P`, itself taken by
 *   this same procedure (so a guard left by a process killed mid-takeover is taken over in
 *   turn). Its holder re-reads the lock and replaces it only if it still names P, then drops
 *   the guard. A process that reads P after that finds the lock changed and backs off, so a
 *   late reader can never overwrite the winner's fresh lock.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {}

/** Exit code of a server refused because another one holds DATA_DIR (EX_TEMPFAIL). */
export const LOCKED_EXIT_CODE = 75;

const LOCK_NAME = "atelier.lock";
/** How long to wait for another process that is taking over a stale lock right now, ms. */
const TAKEOVER_WAIT_MS = 5000;

function alive(pid: number): boolean {
  if (pid <= 0) return false; // kill(0, …) would probe our own process group
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid a lock file names: 0 when it is unreadable (treated as dead), null when it is gone. */
function readPid(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

type Outcome = { held: true } | { held: false; by: number };

/**
 * Makes `file` name this process, unless a live process holds it. Synchronous: start-up
 * has nothing else to do meanwhile, and it keeps the steps in one visible order.
 */
function acquire(file: string, deadline: number): Outcome {
  const mine = `${file}.${process.pid}.tmp`;
  writeFileSync(mine, String(process.pid));
  try {
    for (;;) {
      try {
        linkSync(mine, file);
        return { held: true };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const pid = readPid(file);
      if (pid === null) continue; // released just now: try again
      // Our own pid can only be a leftover of an earlier process that had it (containers
      // often start the server as pid 1 every time).
      if (pid !== process.pid && alive(pid)) return { held: false, by: pid };
      // Stale. Only the holder of this dead pid's guard may replace it.
      const guard = `${file}.${pid}`;
      const right = acquire(guard, deadline);
      if (right.held) {
        try {
          if (readPid(file) === pid) {
            renameSync(mine, file);
            return { held: true };
          }
        } finally {
          removeQuietly(guard);
        }
      } else if (Date.now() > deadline) {
        throw new DataDirLockedError(
          `Could not lock ${path.dirname(file)}: pid ${right.by} is taking it over`,
        );
      } else {
        pause(10); // a live process is replacing it this very moment: read the outcome
      }
    }
  } finally {
    removeQuietly(mine);
  }
}

/** Takes the lock or throws DataDirLockedError. Returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_NAME);
  const outcome = acquire(file, Date.now() + TAKEOVER_WAIT_MS);
  if (!outcome.held) {
    throw new DataDirLockedError(
      `Another Atelier server (pid ${outcome.by}) is using ${dataDir}. PGlite allows one process per data folder: stop it, or use another DATA_DIR, or set DATABASE_URL.`,
    );
  }
  return () => {
    // Nobody takes over the lock of a live process, so reading then unlinking is safe.
    if (readPid(file) === process.pid) removeQuietly(file);
  };
}

/** main.ts's use: the lock, or the clear message on stderr and exit code 75. */
export function lockDataDirOrExit(dataDir: string): () => void {
  try {
    return lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(LOCKED_EXIT_CODE);
    }
    throw error;
  }
}
