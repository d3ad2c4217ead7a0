/**
 * `npm run start:cluster -- --instances 2`: N server instances on one PostgreSQL database,
 * on consecutive loopback ports PORT+1 … PORT+N, behind a proxy on PORT (scripts/cluster-proxy.ts),
 * for local trials of what production does with nginx (docs/deployment.md).
 *
 * Each child's log lines are prefixed with its name (`[i1] …`). A child that exits without
 * being asked is started again after a growing delay; the proxy skips an instance from the
 * moment it is stopped, exits or fails its `/api/health` probe, until it answers again.
 * SIGINT/SIGTERM stop every child (each finishes its requests in flight) and then exit.
 *
 * @example
 * const cluster = await startCluster({ instances: 2, port: 0, env: { DATABASE_URL: url } });
 * await cluster.instances[0].stop(); // rolling restart: A down, B serves
 * await cluster.instances[0].start();
 * await cluster.stop();
 */
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { startProxy, type Upstream } from "./cluster-proxy";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Exit code of a refused configuration (EX_CONFIG), the same as the server's. */
export const EXIT_CONFIG = 78;
export const MAX_INSTANCES = 16;

/** A cluster that cannot be started as asked; the CLI prints the message and exits 78. */
export class ClusterConfigError extends Error {}

export interface ClusterOptions {
  instances: number;
  /** The proxy's port; instances get port+1 … port+N. 0: any free block of N+1 ports. */
  port: number;
  /** Environment of every instance, on top of this process's (DATABASE_URL comes from either). */
  env?: Record<string, string>;
  /** Where prefixed log lines go (default: this process's stdout). */
  log?: (line: string) => void;
  /** How often each instance's `/api/health` is probed, ms. */
  healthIntervalMs?: number;
  /** Interface of the proxy; instances always listen on 127.0.0.1 only. */
  host?: string;
}

export interface ClusterInstance {
  name: string;
  port: number;
  url: string;
  /** Its process is alive (it may still be starting). */
  running(): boolean;
  /** The proxy sends it new requests. */
  up(): boolean;
  /** Starts it (after `stop()`) and resolves once its health check answers 200. */
  start(): Promise<void>;
  /** Takes it out of the proxy, then SIGTERM (SIGKILL after 20 s); it stays down. */
  stop(): Promise<void>;
  /** Sends a signal as a crash would (default SIGKILL): the launcher restarts it. */
  kill(signal?: NodeJS.Signals): void;
}

export interface Cluster {
  /** The proxy's URL. */
  url: string;
  instances: ClusterInstance[];
  /** Stops every instance and the proxy. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** The first port of `count` consecutive loopback ports that were free a moment ago. */
export async function freePortBlock(count: number): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    let free = true;
    for (let p = base; p < base + count && free; p++) free = await portFree(p);
    if (free) return base;
  }
  throw new Error(`no block of ${count} free ports found`);
}

/** Refuses what cannot work, with the reason; returns the database URL (undefined: PGlite). */
export function checkClusterOptions(instances: number, env: NodeJS.ProcessEnv): string | undefined {
  if (!Number.isInteger(instances) || instances < 1 || instances > MAX_INSTANCES) {
    throw new ClusterConfigError(`--instances must be a whole number from 1 to ${MAX_INSTANCES}`);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (!databaseUrl && instances > 1) {
    throw new ClusterConfigError(
      `${instances} instances need DATABASE_URL (postgres://…): without it each instance would open the embedded PGlite database, which only one process may use. Set DATABASE_URL, or start one instance.`,
    );
  }
  return databaseUrl;
}

/** Starts the instances and the proxy; resolves once every instance is healthy. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const childEnv = { ...process.env, ...options.env };
  checkClusterOptions(options.instances, childEnv);
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const healthIntervalMs = options.healthIntervalMs ?? 1000;
  const host = options.host ?? "127.0.0.1";
  const basePort = options.port === 0 ? await freePortBlock(options.instances + 1) : options.port;
  const publicUrl = childEnv.PUBLIC_URL || `http://localhost:${basePort}`;

  const instances = Array.from({ length: options.instances }, (_, i) =>
    createInstance({
      name: `i${i + 1}`,
      port: basePort + 1 + i,
      env: {
        ...childEnv,
        PORT: String(basePort + 1 + i),
        HOST: "127.0.0.1",
        TRUST_PROXY: "true",
        PUBLIC_URL: publicUrl,
      },
      log,
    }),
  );
  const upstreams = (): Upstream[] => instances.map((i) => ({ port: i.port, up: i.up() }));

  let stopping = false;
  const probeAll = async () => {
    while (!stopping) {
      await Promise.all(instances.map((i) => i.probe()));
      await sleep(healthIntervalMs);
    }
  };
  const stopAll = async () => {
    stopping = true;
    await Promise.all(instances.map((i) => i.stop()));
  };

  try {
    await Promise.all(instances.map((i) => i.start()));
  } catch (error) {
    await stopAll();
    throw error;
  }
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  try {
    proxy = await startProxy({
      port: basePort,
      host,
      upstreams,
      onRefused: (port) => instances.find((i) => i.port === port)?.markDown(),
    });
  } catch (error) {
    await stopAll();
    throw error;
  }
  void probeAll();
  const url = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${proxy.port}`;
  log(`[cluster] proxy ${url} → ${instances.map((i) => i.port).join(", ")}`);
  return {
    url,
    instances,
    async stop() {
      await stopAll();
      await proxy.close();
    },
  };
}

interface InstanceSpec {
  name: string;
  port: number;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

/** Backoff of crash restarts: doubles from the first to the last, back to the first after a calm period. */
const RESTART_DELAYS_MS = { first: 500, last: 15_000, calm: 30_000 };

function createInstance(spec: InstanceSpec): ClusterInstance & { probe(): Promise<void>; markDown(): void } {
  const url = `http://127.0.0.1:${spec.port}`;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  /** The launcher wants it running (false after stop()). */
  let wanted = false;
  let healthy = false;
  let restartDelay = RESTART_DELAYS_MS.first;
  let startedAt = 0;
  let restartTimer: NodeJS.Timeout | null = null;

  const running = () => child !== null && child.exitCode === null && child.signalCode === null;
  const prefix = (stream: NodeJS.ReadableStream | null) => {
    if (stream)
      readline.createInterface({ input: stream }).on("line", (line) => spec.log(`[${spec.name}] ${line}`));
  };

  const spawnChild = () => {
    startedAt = Date.now();
    const proc = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: ROOT,
      env: spec.env,
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group: a Ctrl-C in the terminal reaches the launcher, which stops
      // the instances one by one, instead of every process at once.
      detached: true,
    });
    child = proc;
    prefix(proc.stdout);
    prefix(proc.stderr);
    exited = new Promise((resolve) => {
      proc.once("exit", (code, signal) => {
        healthy = false;
        resolve();
        if (!wanted) return;
        if (Date.now() - startedAt > RESTART_DELAYS_MS.calm) restartDelay = RESTART_DELAYS_MS.first;
        spec.log(
          `[cluster] ${spec.name} exited (${signal ?? `code ${code}`}); restarting in ${restartDelay} ms`,
        );
        restartTimer = setTimeout(() => {
          restartTimer = null;
          if (wanted && !running()) spawnChild();
        }, restartDelay);
        restartDelay = Math.min(restartDelay * 2, RESTART_DELAYS_MS.last);
      });
    });
    proc.once("error", (error) => spec.log(`[cluster] ${spec.name} could not start: ${error.message}`));
  };

  const healthOk = async () => {
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(3000) });
      await res.body?.cancel();
      return res.ok;
    } catch {
      return false;
    }
  };

  return {
    name: spec.name,
    port: spec.port,
    url,
    running,
    up: () => wanted && healthy && running(),
    async probe() {
      if (wanted && running()) healthy = await healthOk();
    },
    markDown() {
      healthy = false;
    },
    async start() {
      wanted = true;
      if (!running() && !restartTimer) spawnChild();
      const deadline = Date.now() + 120_000;
      while (!(await healthOk())) {
        if (!wanted) throw new Error(`${spec.name} was stopped while starting`);
        if (Date.now() > deadline)
          throw new Error(`${spec.name} (port ${spec.port}) not healthy after 120 s`);
        await sleep(100);
      }
      healthy = true;
    },
    async stop() {
      wanted = false;
      healthy = false; // out of the proxy first, so no new request is sent to it
      if (restartTimer) clearTimeout(restartTimer);
      restartTimer = null;
      if (!running()) return;
      child?.kill("SIGTERM");
      const force = setTimeout(() => child?.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(force);
    },
    kill(signal = "SIGKILL") {
      if (running()) child?.kill(signal);
    },
  };
}

/** `--instances N` and `--port P` from the command line; PORT (default 8080) otherwise. */
export function parseClusterArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { instances: number; port: number } {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    const inline = argv.find((a) => a.startsWith(`${flag}=`));
    return inline ? inline.slice(flag.length + 1) : i >= 0 ? argv[i + 1] : undefined;
  };
  const instances = Number(value("--instances") ?? 2);
  const port = Number(value("--port") ?? env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 1 || port > 65535 - MAX_INSTANCES) {
    throw new ClusterConfigError("--port (or PORT) must be a port number");
  }
  return { instances, port };
}

async function main() {
  try {
    process.loadEnvFile?.(".env");
  } catch {
    // no .env file: environment only
  }
  let args: { instances: number; port: number };
  try {
    args = parseClusterArgs(process.argv.slice(2), process.env);
    checkClusterOptions(args.instances, process.env);
  } catch (error) {
    if (!(error instanceof ClusterConfigError)) throw error;
    process.stderr.write(`Cluster not started: ${error.message}\n`);
    process.exit(EXIT_CONFIG);
  }
  // Like `npm start`, serve an up-to-date admin app (a variable specifier: the .mjs has no types).
  const spaBuild = "./spa-build.mjs";
  const { runViteBuild, spaBuildReason } = (await import(spaBuild)) as {
    runViteBuild: () => number;
    spaBuildReason: () => string | null;
  };
  const reason = spaBuildReason();
  if (reason) {
    console.log(`Building the admin app (${reason})…`);
    if (runViteBuild() !== 0) {
      console.error("vite build failed; the cluster was not started.");
      process.exit(1);
    }
  }

  const cluster = await startCluster({ ...args, host: process.env.HOST || "0.0.0.0" });
  console.log(`[cluster] ${args.instances} instance(s) ready: http://localhost:${args.port}/manage`);
  let closing = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      console.log(`[cluster] ${signal}: stopping the instances`);
      void cluster.stop().then(() => process.exit(0));
    });
  }
  // Should the launcher die otherwise, do not leave instances running on their own.
  process.on("exit", () => {
    for (const instance of cluster.instances) instance.kill("SIGTERM");
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(
      `Cluster failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
