/**
 * Resource engine benchmark (issues 3 and 12): list with total, get one, create and update
 * through the real app (auth guard, Ajv, engine, response serialisation, live broadcast on, no
 * Idempotency-Key sent, compression as shipped) against a floor, on PGlite and on PostgreSQL,
 * 10,000 products by default. Prints requests/s, p99, the ratio engine ÷ floor and whether it
 * reaches the 0.8× target, all from one run. Prints figures only; nothing is asserted.
 *
 *   npx tsx bench/resource-engine.ts          (or: npm run bench:engine)
 *
 * The floor (bench/resource-engine-floor.ts) is a bare Fastify 5 server that sends ONE SQL
 * statement per route, with no auth, no validation, no response schema. It runs in a process
 * of its own, so the engine under load never shares its thread with it:
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
 *   BENCH_CASES=list,get,create,update   cases to run (default all)
 *   BENCH_DURATION=8                seconds measured per case and side (after a warm-up)
 *   BENCH_ROUNDS=4                  ...in this many slices alternating engine and floor (ABAB…,
 *                                   so a change in the machine's load hits both sides alike)
 *   BENCH_WARMUP=2                  seconds of warm-up per case and side
 *   BENCH_CONNECTIONS=10            autocannon connections
 *   BENCH_PRODUCTS=10000            products seeded
 *   BENCH_PGLITE_DIR=memory         PGlite in memory instead of temp data dirs (the default,
 *                                   as a deployment runs it)
 *   PG_BIN=/usr/lib/postgresql/15/bin
 * Both drivers, all cases, defaults: about 3 minutes on 2 cores.
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
import { mkdtempSync, rmSync } from "node:fs";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { CompiledQuery } from "kysely";
import { findPgBin, startPgCluster } from "../scripts/pg-cluster";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import { type DatabaseHandle, openDatabase } from "../server/db";
import { type Cleanup, reportFailure, runCleanups } from "./bench-run";
import { captureStatements } from "./resource-engine-capture";
import { benchData, createBody, FloorProcess, seed, updateBody } from "./resource-engine-floor";
import { LoadRunner, type LoadSpec } from "./resource-engine-load";
import { cpuNow, meets, merge, type Phase, printTable, type Row } from "./resource-engine-report";
import {
  ADMIN,
  CASES,
  CONNECTIONS,
  DRIVERS,
  type Driver,
  DURATION,
  floorListPath,
  listPath,
  PAGE_SIZE,
  PGLITE_IN_MEMORY,
  PRODUCTS,
  ROUNDS,
  TARGET,
  WARMUP,
} from "./resource-engine-settings";

async function runDriver(driver: Driver, load: LoadRunner, summary: string[]) {
  const cleanups: Cleanup[] = [];
  const t0 = Date.now();
  try {
    let databaseUrl: string | null = null;
    let pgliteDir = "memory://";
    let where = "PGlite in memory";
    let postmasterPid: number | null = null;
    if (driver === "postgres") {
      const bin = findPgBin();
      if (!bin) {
        console.log("\npostgres: skipped (no PostgreSQL binaries; set PG_BIN)");
        return;
      }
      const cluster = await startPgCluster(bin, { tempPrefix: "atelier-bench-pg-" });
      cleanups.push(() => cluster.stop());
      databaseUrl = cluster.url;
      postmasterPid = cluster.postmasterPid;
      where = `${cluster.version}, throwaway cluster at ${cluster.url} (stock settings, pg.Pool max 10)`;
    } else if (!PGLITE_IN_MEMORY) {
      const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-bench-pglite-"));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      pgliteDir = dir;
      where = `PGlite, data dir ${dir}`;
    }
    const config = loadConfig({
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ACCESS_TOKEN_TTL: "3600",
      LOG_LEVEL: "silent",
      HOST: "127.0.0.1",
      PORT: "0",
      CLIENT_DIR: "/nonexistent-client-dir",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const database: DatabaseHandle = await openDatabase({ databaseUrl, pgliteDir });
    cleanups.unshift(() => database.close());
    const built = await buildApp({ config, database, logger: false });
    cleanups.unshift(() => built.app.close());
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    const engineUrl = `http://127.0.0.1:${(built.app.server.address() as net.AddressInfo).port}`;

    const { db } = database;
    const admin = await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", ADMIN.email)
      .executeTakeFirstOrThrow();
    const tSeed = Date.now();
    await seed(db, admin.id);
    const seedSeconds = (Date.now() - tSeed) / 1000;
    const data = await benchData((text, params) =>
      db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, params)),
    );

    const tFloor = Date.now();
    const floorForkedAt = process.uptime();
    const floor = await FloorProcess.start({
      databaseUrl,
      inMemory: PGLITE_IN_MEMORY,
      adminId: admin.id,
    });
    cleanups.unshift(() => floor.stop());
    const floorSeconds = (Date.now() - tFloor) / 1000;
    const floorUrl = floor.ready.url;

    const signIn = await fetch(`${engineUrl}/api/auth/signin`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "atelier-bench" },
      body: JSON.stringify({ ...ADMIN, deviceInfo: { deviceId: "bench", deviceName: "Benchmark" } }),
    });
    if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const token = ((await signIn.json()) as { accessToken: string }).accessToken;
    const auth = { authorization: `Bearer ${token}` };

    // A sanity request through each path, so a wrong token or URL shows up before the runs.
    const probe = (await (await fetch(`${engineUrl}${listPath(1)}`, { headers: auth })).json()) as {
      data?: unknown[];
      total: number;
    };
    const floorProbe = (await (await fetch(`${floorUrl}${floorListPath(1)}`)).json()) as {
      data: unknown[];
      total: number;
    };

    console.log(`\n=== ${driver}: ${where}`);
    console.log(
      `seeded 20 categories, 100 sub-categories, ${PRODUCTS} products in ${seedSeconds.toFixed(1)} s (then vacuum analyze); ` +
        `floor ready in ${floorSeconds.toFixed(1)} s: ${floor.ready.where}`,
    );
    console.log(
      `probe: engine list ${probe.data?.length} rows of total ${probe.total}; floor list ${floorProbe.data.length} rows of total ${floorProbe.total}`,
    );

    // What the engine sends to the database for one request of each case (the floor: one statement).
    const requests: Record<string, () => Promise<Response>> = {
      list: () => fetch(`${engineUrl}${listPath(1)}`, { headers: auth }),
      get: () => fetch(`${engineUrl}/api/products/${data.ids[0]}`, { headers: auth }),
      create: () =>
        fetch(`${engineUrl}/api/products`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ ...createBody(data.categoryId), sku_code: "BENCH-STATEMENTS" }),
        }),
      update: () =>
        fetch(`${engineUrl}/api/products/${data.ids[0]}`, {
          method: "PATCH",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ ...updateBody, name: "Bench statements" }),
        }),
    };
    console.log("engine statements for one request (session cached; the floor sends one):");
    for (const [name, send] of Object.entries(requests)) {
      if (!CASES.has(name)) continue;
      const capture = captureStatements();
      const status = (await send()).status;
      const statements = capture.stop();
      console.log(`  ${name} (${status}): ${statements.length}`);
      for (const s of statements) console.log(`    ${s.length > 150 ? `${s.slice(0, 147)}...` : s}`);
    }

    const base = { connections: CONNECTIONS };
    const engineSpec = (s: Partial<LoadSpec>): LoadSpec => ({
      ...base,
      url: engineUrl,
      token,
      kind: "fixed",
      ...s,
    });
    const floorSpec = (s: Partial<LoadSpec>): LoadSpec => ({ ...base, url: floorUrl, kind: "fixed", ...s });
    const rows: Row[] = [];
    /** When each side was measured, in seconds since its process started (for --cpu-prof windows). */
    const windows = { engine: [] as string[], floor: [] as string[] };
    const phase = async (spec: LoadSpec, seconds: number, side: "engine" | "floor"): Promise<Phase> => {
      const before = cpuNow(floor.pid, postmasterPid);
      const from = process.uptime() - (side === "floor" ? floorForkedAt : 0);
      const r = await load.run(spec, seconds);
      windows[side].push(`${from.toFixed(1)}–${(from + seconds).toFixed(1)}`);
      const after = cpuNow(floor.pid, postmasterPid);
      return { ...r, nodeCpu: after[side] - before[side], pgCpu: after.pg - before.pg };
    };
    /** Warm-up each side, then ROUNDS slices alternating engine and floor. */
    const measure = async (label: string, engine: LoadSpec, floorS: LoadSpec) => {
      await load.run(engine, WARMUP);
      await load.run(floorS, WARMUP);
      const e: Phase[] = [];
      const f: Phase[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        e.push(await phase(engine, DURATION / ROUNDS, "engine"));
        f.push(await phase(floorS, DURATION / ROUNDS, "floor"));
      }
      rows.push({ label, engine: merge(e), floor: merge(f) });
      process.stderr.write(
        `  ${driver} ${label}: done (${((Date.now() - t0) / 1000).toFixed(0)} s; measured at s ${windows.engine.join(", ")} of the engine's process, ${windows.floor.join(", ")} of the floor's)\n`,
      );
      windows.engine = [];
      windows.floor = [];
    };

    if (CASES.has("list")) {
      await measure(
        `list p1 ×${PAGE_SIZE}, filter+sort, total`,
        engineSpec({ path: listPath(1) }),
        floorSpec({ path: floorListPath(1) }),
      );
    }
    if (CASES.has("get")) {
      await measure(
        "get one (100 ids rotating)",
        engineSpec({ kind: "get", prefix: "/api/products", ids: data.ids }),
        floorSpec({ kind: "get", prefix: "/floor/products", ids: floor.ready.ids }),
      );
    }
    if (CASES.has("create")) {
      await measure(
        "create (unique sku)",
        engineSpec({
          kind: "create",
          path: "/api/products",
          body: createBody(data.categoryId),
          skuPrefix: "BENCH-E",
        }),
        floorSpec({
          kind: "create",
          path: "/floor/products",
          body: createBody(floor.ready.categoryId),
          skuPrefix: "BENCH-F",
        }),
      );
    }
    if (CASES.has("update")) {
      await measure(
        "update name+price (100 ids)",
        engineSpec({
          kind: "update",
          prefix: "/api/products",
          ids: data.ids,
          body: updateBody,
          skuPrefix: "E",
        }),
        floorSpec({
          kind: "update",
          prefix: "/floor/products",
          ids: floor.ready.ids,
          body: updateBody,
          skuPrefix: "F",
        }),
      );
    }
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

async function main() {
  console.log(
    `resource engine benchmark — node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ""}`,
  );
  const load = new LoadRunner();
  const summary: string[] = [];
  const started = Date.now();
  try {
    for (const driver of DRIVERS) await runDriver(driver, load, summary);
  } finally {
    load.stop();
  }
  console.log(`\nsummary (engine ÷ floor; target ≥ ${TARGET}×):`);
  for (const line of summary) console.log(`  ${line}`);
  console.log(`\ntotal time ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await main();
