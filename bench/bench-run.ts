/**
 * What every bench does around one driver's run: report a failure, then clean up, bounded in
 * time; autocannon's types; and a server forked into a process of its own (a floor).
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

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
  /** Called with each answer's status and body (autocannon then keeps the bodies). */
  onResponse?: (status: number, body: string) => void;
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

// ---------------------------------------------------------------------------------------------
// A server in a process of its own (a bench's floor): forked from its module with a flag, told
// how to start over IPC, answering what it is once it listens.
// ---------------------------------------------------------------------------------------------

/** The child's side: starts on the parent's message, answers `{ ready }`, closes on disconnect. */
export function serveForked<Start, Ready>(
  start: (s: Start) => Promise<{ ready: Ready; close: () => Promise<void> }>,
): void {
  let close: (() => Promise<void>) | null = null;
  process.once("message", async (message: Start) => {
    try {
      const started = await start(message);
      close = started.close;
      process.send?.({ ready: started.ready });
    } catch (error) {
      process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  });
  process.on("disconnect", async () => {
    await close?.().catch(() => {});
    process.exit(0);
  });
}

/** The parent's side of a server forked from `moduleUrl` with `flag` (see serveForked). */
export class ForkedServer<Ready> {
  private constructor(
    private readonly child: ChildProcess,
    readonly ready: Ready,
  ) {}

  get pid(): number {
    return this.child.pid ?? 0;
  }

  static start<Start, Ready>(moduleUrl: string, flag: string, start: Start): Promise<ForkedServer<Ready>> {
    const child = fork(fileURLToPath(moduleUrl), [flag], {
      execArgv: process.execArgv,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    return new Promise((resolve, reject) => {
      child.once("message", (m: { ready?: Ready; error?: string }) => {
        if (m.ready) resolve(new ForkedServer(child, m.ready));
        else reject(new Error(`${flag} failed to start: ${m.error}`));
      });
      child.once("exit", (code) => reject(new Error(`${flag} process exited (${code})`)));
      child.send(start as object);
    });
  }

  /** Closes the child's server and database, then waits for its process to end. */
  stop(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once("exit", () => resolve());
      this.child.disconnect();
    });
  }
}
