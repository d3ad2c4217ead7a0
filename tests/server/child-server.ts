/**
 * The real server as a child process (server/main.ts, from its bundle: child-bundle.ts), for
 * tests that need what only a process shows: that it stays alive, its exit code, its log.
 *
 * @example
 * const server = spawnServer({ DATABASE_URL: url });
 * await server.waitHealthy();
 * const me = await server.api("GET", "/api/users/me", { token });
 * await server.stop();
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { childArgs } from "./child-bundle";
import { ADMIN, CHROME_UA, sleep } from "./harness";

const ROOT = path.resolve(__dirname, "../..");

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are inspected loosely.
  body: any;
  headers: Headers;
  /** How long the answer took, ms. */
  ms: number;
}

export interface ChildServer {
  child: ChildProcess;
  port: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  running(): boolean;
  waitHealthy(timeoutMs?: number): Promise<void>;
  api(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<Answer>;
  /** SIGTERM, then waits for the exit (SIGKILL if it does not come). */
  stop(): Promise<void>;
}

export { freePort } from "../../scripts/pg-cluster";

/** Thrown by a probe to stop waiting at once (e.g. the process it waits on has died). */
export class GiveUp extends Error {}

/**
 * Polls `probe` until it returns something other than undefined/false, or throws after
 * `timeoutMs`. A probe that throws is tried again, unless it throws GiveUp.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs: number,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`,
      );
    }
    await sleep(everyMs);
  }
}

/**
 * Starts the server on `port` (a free one is the caller's job) with its own DATA_DIR, removed
 * when it exits; `env.DATA_DIR` gives it one of the caller's instead (kept, for restarts).
 */
export function spawnServer(port: number, env: Record<string, string> = {}): ChildServer {
  const ownDir = env.DATA_DIR ? null : mkdtempSync(path.join(os.tmpdir(), "atelier-child-"));
  const dataDir = env.DATA_DIR || (ownDir as string);
  const child = spawn(process.execPath, childArgs("server/main.ts"), {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
      CLIENT_DIR: "/nonexistent",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const running = () => child.exitCode === null && child.signalCode === null;

  const api: ChildServer["api"] = async (method, urlPath, options = {}) => {
    const headers: Record<string, string> = { "user-agent": CHROME_UA };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const started = Date.now();
    const res = await fetch(baseUrl + urlPath, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body, headers: res.headers, ms: Date.now() - started };
  };

  return {
    child,
    port,
    output: () => out,
    exited,
    running,
    api,
    // A cap for a start that hangs, not a timing check: a fresh PGlite folder is created and
    // migrated at start, which took over 60 s on a 2-core machine busy with other work.
    async waitHealthy(timeoutMs = 180_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (!running()) throw new Error(`server exited: ${out}`);
        try {
          if ((await fetch(`${baseUrl}/api/health`)).ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`server not healthy after ${timeoutMs} ms: ${out}`);
        await sleep(100);
      }
    },
    async stop() {
      if (!running()) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
