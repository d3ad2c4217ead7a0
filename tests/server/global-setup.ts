/**
 * Global setup of the "server" vitest project: finds a PostgreSQL server for the
 * integration tests and hands its admin URL to every test file as `inject("pgUrl")`.
 *
 * 1. `TEST_DATABASE_URL` set → that server is used as is (nothing started, nothing stopped).
 * 2. PostgreSQL binaries installed (`PG_BIN`, else /usr/lib/postgresql/15/bin, else the newest
 *    /usr/lib/postgresql/<n>/bin) → a throwaway cluster in a temp dir, trust auth, loopback
 *    only, a free port, fsync off; stopped and deleted in the teardown.
 * 3. Neither → `null`: tests run on PGlite only, and this setup says so.
 *
 * Each test file then creates its own database with `createTestDatabase()` (tests/server/pg.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startS3rver } from "./s3";

declare module "vitest" {
  export interface ProvidedContext {
    /** Admin URL of a PostgreSQL server for tests, or null when only PGlite is available. */
    pgUrl: string | null;
    /** URL of the loopback S3-compatible server (s3rver) for the S3 storage driver. */
    s3Url: string;
  }
}

const PG_ROOT = "/usr/lib/postgresql";

/** The bin folder of a PostgreSQL install: PG_BIN, else version 15, else the newest one found. */
function findPgBin(): string | null {
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

/** A port that was free a moment ago on 127.0.0.1. */
function freePort(): Promise<number> {
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

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** uid/gid of the `postgres` system user, or null when there is none. */
function postgresUser(): { uid: number; gid: number } | null {
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs a PostgreSQL tool. initdb and postgres refuse to run as root, so as root the tool runs
 * as the `postgres` system user (runuser, else su).
 */
function runPg(cmd: string, args: string[]): { ok: boolean; output: string } {
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
  const result = spawnSync(file, argv, { cwd: "/", encoding: "utf8", timeout: 120_000 });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? String(result.error) : ""}`;
  return { ok: result.status === 0, output };
}

interface Cluster {
  url: string;
  stop(): void;
}

function startCluster(bin: string, port: number): Cluster {
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-pg-"));
  const dataDir = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
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
    const options = [
      "-c listen_addresses=127.0.0.1",
      `-c port=${port}`,
      `-c unix_socket_directories=${dir}`,
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=200",
    ].join(" ");
    const start = runPg(path.join(bin, "pg_ctl"), [
      "-D",
      dataDir,
      "-l",
      logFile,
      "-o",
      options,
      "-w",
      "-t",
      "60",
      "start",
    ]);
    if (!start.ok) {
      const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
      throw new Error(`pg_ctl start failed:\n${start.output}\n${log}`);
    }
  } catch (error) {
    removeDir();
    throw error;
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    runPg(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "stop"]);
    removeDir();
  };
  // If vitest dies without running the teardown, still do not leave a server behind.
  process.once("exit", stop);
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const s3 = await startS3rver();
  console.log(`[server tests] S3: s3rver at ${s3.url}`);
  project.provide("s3Url", s3.url);
  const stopPg = await setupPostgres(project);
  return async () => {
    stopPg?.();
    await s3.stop();
  };
}

async function setupPostgres(project: TestProject): Promise<(() => void) | undefined> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    console.log("[server tests] PostgreSQL: TEST_DATABASE_URL");
    project.provide("pgUrl", given);
    return undefined;
  }
  const bin = findPgBin();
  if (!bin) {
    console.warn(
      "[server tests] PostgreSQL: not available (no TEST_DATABASE_URL, no binaries under /usr/lib/postgresql) — running on PGlite only",
    );
    project.provide("pgUrl", null);
    return undefined;
  }
  let lastError: unknown;
  // The free port can be taken between the probe and the start; try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const cluster = startCluster(bin, await freePort());
      console.log(`[server tests] PostgreSQL: throwaway cluster from ${bin} at ${cluster.url}`);
      project.provide("pgUrl", cluster.url);
      return () => cluster.stop();
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
