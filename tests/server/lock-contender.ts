/**
 * A process that competes for a DATA_DIR lock on command, for tests/server/lock.test.ts.
 * Prints "ready", then one JSON line per command read from stdin:
 * - `try <dir>`: lockDataDir → {"held":true} or {"held":false,"message":…}
 * - `release`: gives back the lock held → {"released":true}
 * - `exit-mode <dir>`: main.ts's lockDataDirOrExit → {"held":true}, or exits 75 with the message
 */
import { createInterface } from "node:readline";
import { DataDirLockedError, lockDataDir, lockDataDirOrExit } from "../../server/lock";

let release: (() => void) | null = null;
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

createInterface({ input: process.stdin }).on("line", (line) => {
  const space = line.indexOf(" ");
  const command = space < 0 ? line : line.slice(0, space);
  const dir = line.slice(space + 1);
  if (command === "release") {
    release?.();
    release = null;
    say({ released: true });
  } else if (command === "try") {
    try {
      release = lockDataDir(dir);
      say({ held: true });
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      say({ held: false, message: error.message });
    }
  } else if (command === "exit-mode") {
    release = lockDataDirOrExit(dir);
    say({ held: true });
  }
});
process.stdout.write("ready\n");
