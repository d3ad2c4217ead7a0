/**
 * PGlite is one process's database: a lock file of ours in DATA_DIR makes a second
 * server on the same folder fail fast, naming the pid that holds it.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock or throws DataDirLockedError. Returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "atelier.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => {
        try {
          if (readFileSync(file, "utf8").trim() === String(process.pid)) unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(file, "utf8").trim());
      if (pid && pid !== process.pid && alive(pid)) {
        throw new DataDirLockedError(
          `Another Atelier server (pid ${pid}) is using ${dataDir}. PGlite allows one process per data folder: stop it, or use another DATA_DIR, or set DATABASE_URL.`,
        );
      }
      unlinkSync(file); // stale: its process is gone (e.g. after kill -9)
    }
  }
  throw new DataDirLockedError(`Could not lock ${dataDir}`);
}
