/**
 * The engine bench's load: autocannon in a child process (this file, forked with
 * `--load-child`), so the servers under test keep the parent's cores to themselves.
 */
import { type ChildProcess, fork } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Autocannon, AutocannonRequest } from "./bench-run";

// ---------------------------------------------------------------------------------------------
// Load child: runs autocannon on request of the parent, over IPC.
// ---------------------------------------------------------------------------------------------

export interface LoadSpec {
  url: string;
  kind: "fixed" | "get" | "create" | "update";
  /** Path of a fixed request (lists) or of `create`. */
  path?: string;
  /** Path prefix of `get` and `update` (id appended, rotating over `ids`). */
  prefix?: string;
  ids?: string[];
  /**
   * Body of `create` (`sku_code`, or the value at `uniquePath`, replaced by a unique one per
   * request) or of `update` (`name` replaced by a new one per request).
   */
  body?: Record<string, unknown>;
  /** Start of the unique `sku_code` / `name` of each request. */
  skuPrefix?: string;
  /** Dotted path of a create's unique value in its body (default `sku_code`), e.g. `answers.name`. */
  uniquePath?: string;
  /** Keep the `id` of every 201 answer (PhaseResult.ids), to check afterwards that each was stored. */
  collectIds?: boolean;
  token?: string;
  /** More request headers (e.g. `if-none-match`). */
  headers?: Record<string, string>;
  connections: number;
}

/** One autocannon run, as the child reports it. */
export interface PhaseResult {
  seconds: number;
  requests: number;
  /** Response times, ms, of every response. */
  latencies: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  /** With `collectIds`: the ids of the 201 answers. */
  ids?: string[];
}

/** `body` with the value at `path` set (objects on the way copied, the rest shared). */
function withValue(
  body: Record<string, unknown>,
  path: readonly string[],
  value: string,
): Record<string, unknown> {
  const [key, ...rest] = path;
  const inner = (body[key] ?? {}) as Record<string, unknown>;
  return { ...body, [key]: rest.length ? withValue(inner, rest, value) : value };
}

export async function runLoad(spec: LoadSpec, seconds: number, salt: string): Promise<PhaseResult> {
  const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
  const headers: Record<string, string> = { ...spec.headers };
  if (spec.token) headers.authorization = `Bearer ${spec.token}`;
  let request: AutocannonRequest;
  if (spec.kind === "fixed") {
    request = { method: "GET", path: spec.path, headers };
  } else if (spec.kind === "get") {
    const ids = spec.ids ?? [];
    let i = 0;
    request = {
      method: "GET",
      headers,
      setupRequest: (req) => ({ ...req, path: `${spec.prefix}/${ids[i++ % ids.length]}` }),
    };
  } else if (spec.kind === "update") {
    const ids = spec.ids ?? [];
    let n = 0;
    request = {
      method: "PATCH",
      headers: { ...headers, "content-type": "application/json" },
      setupRequest: (req) => ({
        ...req,
        path: `${spec.prefix}/${ids[n % ids.length]}`,
        body: JSON.stringify({ ...spec.body, name: `${spec.skuPrefix}-${salt}-${n++}` }),
      }),
    };
  } else {
    let n = 0;
    const unique = (spec.uniquePath ?? "sku_code").split(".");
    request = {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      setupRequest: (req) => ({
        ...req,
        path: spec.path,
        body: JSON.stringify(withValue(spec.body ?? {}, unique, `${spec.skuPrefix}-${salt}-${n++}`)),
      }),
    };
  }
  const ids: string[] = [];
  if (spec.collectIds)
    request.onResponse = (status, body) => {
      if (status === 201) ids.push((JSON.parse(body) as { id: string }).id);
    };
  const latencies: number[] = [];
  const run = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: seconds,
    requests: [request],
  });
  run.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
  const r = await run;
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = stat.count;
  return {
    seconds: r.duration,
    requests: r.requests.total,
    latencies,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses,
    ...(spec.collectIds ? { ids } : {}),
  };
}

export function loadChild() {
  process.on("message", async (message: { id: number; spec: LoadSpec; seconds: number }) => {
    const { id, spec, seconds } = message;
    try {
      process.send?.({ id, result: await runLoad(spec, seconds, String(id)) });
    } catch (error) {
      process.send?.({ id, error: String(error) });
    }
  });
  process.on("disconnect", () => process.exit(0));
}

/** The load child, forked once; one autocannon run at a time. */
export class LoadRunner {
  private readonly child: ChildProcess;
  private next = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (r: PhaseResult) => void; reject: (e: Error) => void }
  >();

  constructor() {
    this.child = fork(fileURLToPath(import.meta.url), ["--load-child"], {
      execArgv: process.execArgv,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.child.on("message", (m: { id: number; result?: PhaseResult; error?: string }) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.result) w.resolve(m.result);
      else w.reject(new Error(m.error ?? "load child failed"));
    });
    this.child.on("exit", () => {
      for (const w of this.waiting.values()) w.reject(new Error("load child exited"));
      this.waiting.clear();
    });
  }

  run(spec: LoadSpec, seconds: number): Promise<PhaseResult> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, spec, seconds });
    });
  }

  stop() {
    if (this.child.connected) this.child.disconnect();
    if (this.child.exitCode === null) this.child.kill();
  }
}

if (process.argv[2] === "--load-child") loadChild();
