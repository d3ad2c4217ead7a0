/**
 * Resource engine benchmark (issues 3, 12 and 28): list with total, get one, create and update
 * through the real app (auth guard, Ajv, engine, response serialisation, live broadcast on, no
 * Idempotency-Key sent, compression as shipped) against a floor, on PGlite and on PostgreSQL,
 * 10,000 products by default; and one list per module beside a floor of its own (page 1 of 25
 * with its total, as the admin SPA asks for it, 5,000 rows each by default; bench/module-lists.ts):
 * CMS entries of one type, a form's submissions, CRM clients, automations, proposals. Prints
 * requests/s, p99, the ratio engine ÷ floor and whether it reaches the 0.8× target, all from one
 * run, after the statements one engine request of each case sends and the floor's module
 * statements. Prints figures only; nothing is asserted.
 *
 *   npx tsx bench/resource-engine.ts          (or: npm run bench:engine)
 *
 * The floor (bench/resource-engine-floor.ts) is a bare Fastify 5 server that sends ONE SQL
 * statement per route (a module list's too: its page and total), with no auth, no validation,
 * no response schema. It runs in a process of its own, so the engine under load never shares
 * its thread with it:
 * - PostgreSQL: the floor has its own `pg` Pool (max 10, as the engine's) on the same database
 *   and the same rows;
 * - PGlite: the floor owns a PGlite of its own, migrated and seeded with the same rows (PGlite is
 *   one in-process backend; it cannot be shared with another process, and the engine's own
 *   would put the floor on the engine's thread). On PGlite each server does its database work on
 *   its own thread, as a deployment of either would.
 * The engine runs in this process, with its database handle (PGlite in process too). Both log
 * no requests (LOG_LEVEL=silent), and autocannon sends no Accept-Encoding: answers go out
 * uncompressed on both sides, the engine's compression hooks still running.
 *
 * Environment (all optional):
 *   BENCH_DRIVERS=pglite,postgres   drivers to run (default both; postgres needs PG binaries)
 *   BENCH_CASES=list,get,create,update,cms-entries,form-submissions,crm-clients,automations,proposals
 *                                  cases to run (default all: the products', then the module lists)
 *   BENCH_DURATION=8                seconds measured per case and side (after a warm-up)
 *   BENCH_ROUNDS=4                  ...in this many slices alternating engine and floor (ABAB…,
 *                                   so a change in the machine's load hits both sides alike)
 *   BENCH_WARMUP=2                  seconds of warm-up per case and side
 *   BENCH_CONNECTIONS=10            autocannon connections
 *   BENCH_PRODUCTS=10000            products seeded
 *   BENCH_MODULE_ROWS=5000          rows seeded per module list (≤ 10,000: the totals stay exact)
 *   BENCH_PGLITE_DIR=memory         PGlite in memory instead of temp data dirs (the default,
 *                                   as a deployment runs it)
 *   PG_BIN=/usr/lib/postgresql/15/bin
 * Both drivers, all cases, defaults: about 7 minutes on 2 cores (each case ≈ 21 s a driver: the
 * products' 4 ≈ 3 minutes, the 5 module lists ≈ 3.5; BENCH_CASES=list,get,create,update for the first).
 *
 * Each driver runs in a process of its own (this script, BENCH_DRIVERS set to it), as a
 * deployment runs one driver; the summary gathers them.
 *
 * Load comes from autocannon in a child process (bench/resource-engine-load.ts, forked with
 * `--load-child`), so the load generator does not share the servers' event loop. PostgreSQL is
 * a throwaway cluster (scripts/pg-cluster.ts: initdb/pg_ctl, stock settings, loopback, free
 * port) stopped and deleted at the end.
 *
 * Profiling: `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/resource-engine.ts`
 * writes a .cpuprofile for this process (the engine) and the floor's; each case prints when
 * each side was measured, and `node bench/cpuprofile-summary.mjs <file> --window <those spans>`
 * sums the self time of those spans by function and by file.
 */
import { fork } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Cleanup, reportFailure, runCleanups } from "./bench-run";
import { runCases } from "./resource-engine-cases";
import { LoadRunner } from "./resource-engine-load";
import { meets, printTable } from "./resource-engine-report";
import { ALL_CASES, CASES, DRIVERS, type Driver, TARGET } from "./resource-engine-settings";
import { startSides } from "./resource-engine-setup";

async function runDriver(driver: Driver, load: LoadRunner, summary: string[]) {
  const cleanups: Cleanup[] = [];
  const t0 = Date.now();
  try {
    const sides = await startSides(driver, cleanups);
    if (!sides) return;
    const rows = await runCases(driver, sides, load, t0);
    printTable(driver, rows);
    console.log(
      "ratio = engine req/s ÷ floor req/s. floor: bare Fastify, one SQL statement per route, no auth, no validation.\n" +
        "engine: + JWT and session check (a session lookup at most every SESSION_CACHE_MS), module permission, Ajv,\n" +
        "input guards, response schema, security headers, compression, idempotency hook, live broadcast.",
    );
    for (const row of rows) {
      const ratio = row.engine.rps / row.floor.rps;
      summary.push(
        `${driver.padEnd(9)} ${row.label.padEnd(34)} ${ratio.toFixed(2)}×  ≥ ${TARGET}×: ${meets(ratio)}`,
      );
    }
  } catch (error) {
    reportFailure(driver, error);
  } finally {
    await runCleanups(cleanups);
  }
}

/**
 * Each driver's engine in a process of its own (this script again, one driver), as a deployment
 * runs one: measured one after the other in one process, PostgreSQL's engine after PGlite's ran
 * on code V8 had optimised for the other driver's objects (its node time per list request
 * 722 µs instead of 373 in one quiet window). Answers each one's summary lines.
 */
function runDriverApart(driver: Driver): Promise<string[]> {
  const file = path.join(os.tmpdir(), `atelier-bench-engine-${process.pid}-${driver}.json`);
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BENCH_DRIVERS: driver, BENCH_SUMMARY_FILE: file },
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("exit", () => {
      try {
        resolve(JSON.parse(readFileSync(file, "utf8")) as string[]);
        rmSync(file, { force: true });
      } catch {
        resolve([`${driver.padEnd(9)} (no summary: its run failed, see above)`]);
      }
    });
  });
}

async function main() {
  const unknown = [...CASES].filter((c) => !ALL_CASES.includes(c));
  if (unknown.length)
    throw new Error(`BENCH_CASES: no case ${unknown.join(", ")} (cases: ${ALL_CASES.join(", ")})`);
  const summary: string[] = [];
  const started = Date.now();
  if (DRIVERS.length > 1) {
    for (const driver of DRIVERS) summary.push(...(await runDriverApart(driver)));
  } else {
    console.log(
      `resource engine benchmark — node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ""}`,
    );
    const load = new LoadRunner();
    try {
      for (const driver of DRIVERS) await runDriver(driver, load, summary);
    } finally {
      load.stop();
    }
    if (process.env.BENCH_SUMMARY_FILE) {
      writeFileSync(process.env.BENCH_SUMMARY_FILE, JSON.stringify(summary));
      return;
    }
  }
  console.log(`\nsummary (engine ÷ floor; target ≥ ${TARGET}×):`);
  for (const line of summary) console.log(`  ${line}`);
  console.log(`\ntotal time ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await main();
