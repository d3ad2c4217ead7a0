/** What the job queue's and run engine's tests share: a polling wait and a logger that keeps its lines. */
import type { JobLogger } from "../../server/jobs";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls `probe` until it answers something truthy, and answers that. The deadline is a cap for
 * something stuck, not a timing check: generous, as a loaded machine stalls for seconds.
 */
export async function until<T>(
  probe: () => Promise<T> | T,
  what: string,
  timeoutMs = 30_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export interface LogLine {
  level: "info" | "warn" | "error";
  msg?: string;
  obj: object;
}

export function collectingLogger(lines: LogLine[]): JobLogger {
  return {
    info: (obj, msg) => void lines.push({ level: "info", obj, msg }),
    warn: (obj, msg) => void lines.push({ level: "warn", obj, msg }),
    error: (obj, msg) => void lines.push({ level: "error", obj, msg }),
  };
}
