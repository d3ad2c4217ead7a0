/**
 * CSV export benchmark (issue 12): the real server (`server/main.ts`, a child process of its
 * own, so its memory is its own) exports 100,000 seeded products with descriptions of about
 * 1 kB (a 100 MB file), and this script prints rows/s and the server's peak RSS growth during
 * the download beside a floor. Prints figures only; nothing is asserted.
 *
 *   npx tsx bench/csv-export.ts
 *
 * Each driver's server is started twice on the same data:
 * 1. as shipped: rows/s, and the RSS growth, which is mostly V8's headroom: it lets garbage (the
 *    chunks already sent) pile up to a limit of its own before collecting, about the same
 *    whatever the file's size;
 * 2. with its JavaScript heap capped at 128 MB (`--max-old-space-size=128`), less than the file
 *    and its rows would take if the server held them: the export must still complete, and
 *    the floor is that the RSS then grows by under a quarter of the file's size (a server that
 *    held the file would grow by more than the file, or run out of heap).
 * Each start runs two exports of the whole table: the first reads it from disk into the
 * database's cache (on PGlite that cache is in the server process: a database's memory, not
 * the export's), the second is the one measured. RSS is read from /proc/<pid>/status every
 * 5 ms (Linux).
 *
 * Environment (all optional):
 *   BENCH_ROWS=100000             products seeded
 *   BENCH_DESCRIPTION=30          description length, in 32-character pieces (30: about 1 kB)
 *   BENCH_DRIVERS=pglite,postgres drivers (default both; postgres needs PG binaries, else skipped)
 *   PG_BIN=/usr/lib/postgresql/15/bin
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { findPgBin, freePort, startPgCluster } from "../scripts/pg-cluster";
import { openDatabase } from "../server/db";
import { type Cleanup, reportFailure, runCleanups } from "./bench-run";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
/** Length of each product's description, in 32-character pieces (30: about 1 kB). */
const DESCRIPTION_MD5S = Number(process.env.BENCH_DESCRIPTION ?? 30);
const DRIVERS = (process.env.BENCH_DRIVERS ?? "pglite,postgres").split(",").map((d) => d.trim());
const ADMIN = { email: "bench-admin@example.com", password: "Bench-Passw0rd!" };
/** The floor: with the heap capped, RSS growth during the download under this share of the file. */
const FLOOR_SHARE = 0.25;
/** The JavaScript heap cap of the second start, MB: less than the file and its rows held at once. */
const HEAP_CAP_MB = 128;
const ROOT = path.resolve(import.meta.dirname, "..");

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The process's resident set, bytes (Linux /proc). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

/** Seeds one category and ROWS products, in one statement. */
async function seed(databaseUrl: string | null, dataDir: string) {
  const database = await openDatabase({ databaseUrl, pgliteDir: dataDir });
  try {
    await sql`
      with category as (insert into categories (name) values ('Bench lamps') returning id)
      insert into products (sku_code, name, description, price, category_id, status, images, updated_at)
      select 'B-' || lpad(i::text, 7, '0'), 'Bench product ' || i,
             'A description, with a comma and "quotes". ' || repeat(md5(i::text), ${DESCRIPTION_MD5S}),
             (i % 100000) / 100.0, (select id from category),
             case when i % 2 = 0 then 'active' else 'draft' end,
             case when i % 4 = 0 then '["https://img.example/a.jpg","https://img.example/b.jpg"]'::jsonb end,
             now() - make_interval(secs => i)
      from generate_series(1, ${ROWS}) as i`.execute(database.db);
  } finally {
    await database.close();
  }
}

interface Server {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Starts `server/main.ts` and waits until it answers its health check. */
async function startServer(env: Record<string, string>, flags: string[]): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [...flags, "--import", "tsx", "server/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      CLIENT_DIR: "/nonexistent-client-dir",
      SMTP_URL: "",
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error("the server did not become healthy in 120 s");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    url,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Signs the bench's admin in; its access token. */
async function signIn(server: Server): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/signin`, {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": "atelier-bench" },
    body: JSON.stringify({ ...ADMIN, deviceInfo: { deviceId: "bench", deviceName: "Benchmark" } }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

interface Download {
  rows: number;
  bytes: number;
  seconds: number;
  rssBefore: number;
  rssPeak: number;
}

/** Downloads the whole export, counting rows and bytes as they come, sampling the server's RSS. */
async function download(server: Server, token: string): Promise<Download> {
  const pid = server.child.pid as number;
  const rssBefore = rssOf(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssOf(pid));
  }, 5);
  const t0 = process.hrtime.bigint();
  try {
    const res = await fetch(`${server.url}/api/products/export.csv`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok || !res.body) throw new Error(`export answered ${res.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    rssPeak = Math.max(rssPeak, rssOf(pid));
    // Quoted line breaks aside (none in the seeded rows), lines = header + rows.
    return { rows: lines - 1, bytes, seconds, rssBefore, rssPeak };
  } finally {
    clearInterval(sampler);
  }
}

async function runDriver(driver: string, summary: string[]) {
  const cleanups: Cleanup[] = [];
  try {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-bench-csv-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | null = null;
    if (driver === "postgres") {
      const bin = findPgBin();
      if (!bin) {
        console.log("\npostgres: skipped (no PostgreSQL binaries; set PG_BIN)");
        return;
      }
      const cluster = await startPgCluster(bin, { tempPrefix: "atelier-bench-csv-pg-" });
      cleanups.unshift(() => cluster.stop());
      databaseUrl = cluster.url;
    }
    const tSeed = Date.now();
    await seed(databaseUrl, dataDir);
    console.log(
      `\n=== ${driver}: ${ROWS.toLocaleString("en")} products seeded in ${((Date.now() - tSeed) / 1000).toFixed(1)} s`,
    );

    const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? "" };
    const starts = [
      { name: "as shipped", flags: [] as string[] },
      { name: `heap capped at ${HEAP_CAP_MB} MB`, flags: [`--max-old-space-size=${HEAP_CAP_MB}`] },
    ];
    const measured: Array<Download & { name: string }> = [];
    for (const start of starts) {
      const server = await startServer(env, start.flags);
      try {
        const token = await signIn(server);
        console.log(`-- ${start.name}`);
        for (const label of ["first (cold cache)", "second (measured)"]) {
          const d = await download(server, token);
          const growth = d.rssPeak - d.rssBefore;
          console.log(
            `${label.padEnd(19)} ${d.rows.toLocaleString("en")} rows, ${mb(d.bytes)} in ${d.seconds.toFixed(2)} s: ` +
              `${Math.round(d.rows / d.seconds).toLocaleString("en")} rows/s; server RSS ${mb(d.rssBefore)} → ` +
              `peak ${mb(d.rssPeak)} (growth ${mb(growth)}, ${((growth / d.bytes) * 100).toFixed(0)} % of the file)`,
          );
          if (d.rows !== ROWS) console.log(`  ! expected ${ROWS} rows, got ${d.rows}`);
          if (label.startsWith("second")) measured.push({ ...d, name: start.name });
        }
      } finally {
        await server.stop();
      }
    }
    const [shipped, capped] = measured;
    const cappedGrowth = capped.rssPeak - capped.rssBefore;
    const verdict = cappedGrowth < FLOOR_SHARE * capped.bytes ? "meets" : "misses";
    summary.push(
      `${driver.padEnd(9)} ${Math.round(shipped.rows / shipped.seconds)
        .toLocaleString("en")
        .padStart(
          7,
        )} rows/s   RSS growth ${mb(shipped.rssPeak - shipped.rssBefore).padStart(8)} as shipped, ` +
        `${mb(cappedGrowth).padStart(8)} with the heap capped, for a ${mb(capped.bytes)} file: ${verdict} the floor (< ${FLOOR_SHARE * 100} %)`,
    );
  } catch (error) {
    reportFailure(driver, error);
  } finally {
    await runCleanups(cleanups);
  }
}

async function main() {
  console.log(`CSV export: ${ROWS.toLocaleString("en")} products through GET /api/products/export.csv`);
  const summary: string[] = [];
  for (const driver of DRIVERS) await runDriver(driver, summary);
  console.log(`\nSummary (the second export of each start):\n${summary.join("\n")}`);
}

await main();
