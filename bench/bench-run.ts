/** What every bench does around one driver's run: report a failure, then clean up, bounded in time. */

export type Cleanup = () => Promise<void> | void;

/** Prints a driver's failure and marks the run failed, without stopping the other drivers. */
export function reportFailure(driver: string, error: unknown): void {
  console.log(
    `\n${driver}: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exitCode = 1;
}

/** Runs cleanups in order; one that fails is reported, one that hangs is left after 15 s. */
export async function runCleanups(cleanups: readonly Cleanup[]): Promise<void> {
  for (const cleanup of cleanups) {
    await Promise.race([
      Promise.resolve()
        .then(cleanup)
        .catch((e) => console.log(`cleanup: ${String(e)}`)),
      new Promise((r) => setTimeout(r, 15_000).unref()),
    ]);
  }
}

/** One request of an autocannon run (the package ships no types). */
export interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}

/** What the benches read of an autocannon run's result. */
export interface AutocannonResult {
  duration: number;
  requests: { total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}

/** A running autocannon: its result, and its per-response events. */
export type AutocannonRun = Promise<AutocannonResult> & {
  on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
};

/** autocannon's entry point, as the benches call it. */
export type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: AutocannonRequest[];
}) => AutocannonRun;
