/**
 * A throwaway PostgreSQL cluster for the server tests and the benchmarks: initdb in a temp
 * folder, trust auth, listening on loopback only at a free port, stopped and deleted by
 * `stop()` (or when the process exits). initdb and postgres refuse to run as root, so as root
 * the tools run as the `postgres` system user.
 *
 * @example
 * const bin = findPgBin();
 * if (bin) {
 *   const cluster = await startPgCluster(bin, { settings: { fsync: "off" } });
 *   try {
 *     await use(cluster.url); // postgres://postgres@127.0.0.1:<port>/postgres
 *   } finally {
 *     cluster.stop();
 *   }
 * }
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const PG_ROOT = "/usr/lib/postgresql";
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** The bin folder of a PostgreSQL install: PG_BIN, else version 15, else the newest one found. */
export function findPgBin(): string | null {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  candidates.push(path.join(PG_ROOT, "15", "bin"));
  if (existsSync(PG_ROOT)) {
    const versions = readdirSync(PG_ROOT)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(path.join(PG_ROOT, v, "bin"));
  }
  return (
    candidates.find((bin) => existsSync(path.join(bin, "initdb")) && existsSync(path.join(bin, "pg_ctl"))) ??
    null
  );
}

/** A port that was free a moment ago on 127.0.0.1 (tests and benches take theirs here too). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** uid/gid of the `postgres` system user, or null when there is none. */
function postgresUser(): { uid: number; gid: number } | null {
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs a PostgreSQL tool; as root, as the `postgres` system user (runuser, else su). */
export function runPg(cmd: string, args: string[], timeout = 120_000): { ok: boolean; output: string } {
  let file = cmd;
  let argv = args;
  if (isRoot) {
    if (existsSync("/usr/sbin/runuser") || existsSync("/sbin/runuser")) {
      file = "runuser";
      argv = ["-u", "postgres", "--", cmd, ...args];
    } else {
      file = "su";
      argv = ["postgres", "-s", "/bin/sh", "-c", [cmd, ...args].map(shellQuote).join(" ")];
    }
  }
  // cwd "/" so the tool never starts in a folder the postgres user cannot read.
  const result = spawnSync(file, argv, { cwd: "/", encoding: "utf8", timeout });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? String(result.error) : ""}`;
  return { ok: result.status === 0, output };
}

export interface PgClusterOptions {
  /** Server settings (`-c name=value`) on top of the stock ones, e.g. `{ fsync: "off" }`. */
  settings?: Record<string, string | number>;
  /** Prefix of the temp folder's name. */
  tempPrefix?: string;
}

export interface PgCluster {
  /** Admin URL: `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  /** The postmaster's process id at the first start (its backends are its children), null when unknown. */
  postmasterPid: number | null;
  /** `postgres --version`. */
  version: string;
  /** Stops the server and deletes its folder; safe to call twice. */
  stop(): void;
  /**
   * Stops the server but keeps its data, as an outage would (`fast`: clients are told the
   * server is shutting down; `immediate`: a crash, no goodbye). Waits until it is down.
   */
  stopServer(mode?: "fast" | "immediate"): void;
  /** Starts a server stopped by `stopServer` again, on the same port; waits until it accepts connections. */
  startServer(): void;
}

/** Starts a throwaway cluster from the binaries in `bin` (see `findPgBin`). */
export async function startPgCluster(bin: string, options: PgClusterOptions = {}): Promise<PgCluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), options.tempPrefix ?? "atelier-pg-"));
  const dataDir = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  let started = false;
  let stopped = false;
  /** pg_ctl start arguments of the running server, kept so it can be started again as is. */
  let startArgs: string[] = [];
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", stop);
    // Immediate: the data is thrown away, so there is nothing to flush.
    if (started) {
      runPg(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "-t", "30", "stop"], 40_000);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // If the process dies without calling stop(), still do not leave a server behind.
  process.once("exit", stop);
  try {
    if (isRoot) {
      const user = postgresUser();
      if (!user) throw new Error("running as root but there is no 'postgres' system user to run initdb");
      spawnSync("chown", ["-R", `${user.uid}:${user.gid}`, dir]);
    }
    const init = runPg(path.join(bin, "initdb"), [
      "-D",
      dataDir,
      "-U",
      "postgres",
      "--auth=trust",
      "--encoding=UTF8",
      "--locale=C",
      "--no-sync",
      "--no-instructions",
    ]);
    if (!init.ok) throw new Error(`initdb failed:\n${init.output}`);
    const extra = Object.entries(options.settings ?? {}).map(([name, value]) => `-c ${name}=${value}`);
    // The free port can be taken between the probe and the start; try a few.
    for (let attempt = 0; ; attempt++) {
      const port = await freePort();
      const settings = [
        "-c listen_addresses=127.0.0.1",
        `-c port=${port}`,
        `-c unix_socket_directories=${dir}`,
        ...extra,
      ];
      startArgs = ["-D", dataDir, "-l", logFile, "-o", settings.join(" "), "-w", "-t", "60", "start"];
      const start = runPg(path.join(bin, "pg_ctl"), startArgs);
      if (start.ok) {
        started = true;
        const pidFile = path.join(dataDir, "postmaster.pid");
        const postmasterPid = existsSync(pidFile)
          ? Number(readFileSync(pidFile, "utf8").split("\n")[0]) || null
          : null;
        const version = runPg(path.join(bin, "postgres"), ["--version"]).output.trim();
        const stopServer = (mode: "fast" | "immediate" = "fast") => {
          const down = runPg(
            path.join(bin, "pg_ctl"),
            ["-D", dataDir, "-m", mode, "-w", "-t", "60", "stop"],
            70_000,
          );
          if (!down.ok) throw new Error(`pg_ctl stop failed:\n${down.output}`);
        };
        const startServer = () => {
          const up = runPg(path.join(bin, "pg_ctl"), startArgs, 70_000);
          if (!up.ok) {
            const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
            throw new Error(`pg_ctl start failed:\n${up.output}\n${log}`);
          }
        };
        return {
          url: `postgres://postgres@127.0.0.1:${port}/postgres`,
          postmasterPid,
          version,
          stop,
          stopServer,
          startServer,
        };
      }
      if (attempt >= 2) {
        const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
        throw new Error(`pg_ctl start failed:\n${start.output}\n${log}`);
      }
    }
  } catch (error) {
    stop();
    throw error;
  }
}

/** Runs `run` on a client of its own on `url` (a throwaway cluster's, an operator's query), closed after. */
export async function withPgClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
