/**
 * Resource engine benchmark (issue 3): list-with-total, get one and create through the real
 * app (auth guard, Ajv, engine, response serialisation) against a "floor" — a bare Fastify
 * server on the same database handle that sends the same SQL by hand — on PGlite and on
 * PostgreSQL. Prints requests/s, p99 and the ratio engine/floor. Prints figures only.
 *
 *   npx tsx bench/resource-engine.ts          (or: npm run bench:engine)
 *
 * Environment (all optional):
 *   BENCH_DRIVERS=pglite,postgres   drivers to run (default both; postgres needs PG binaries)
 *   BENCH_DURATION=8                seconds measured per case and side (after a 2 s warm-up),
 *                                   in 2 slices alternating engine and floor (ABAB, against drift)
 *   BENCH_CONNECTIONS=10            autocannon connections
 *   BENCH_PRODUCTS=100000           products seeded
 *   BENCH_CASES=list,deep,get,create   cases to run (default all)
 *   BENCH_PGLITE_DIR=memory         PGlite in memory instead of a temp data dir
 *   PG_BIN=/usr/lib/postgresql/15/bin
 *
 * Load comes from autocannon in a child process (bench/resource-engine-load.ts, forked with `--load-child`), so
 * the load generator does not share the servers' event loop. PostgreSQL is a throwaway
 * cluster (scripts/pg-cluster.ts: initdb/pg_ctl, stock settings, loopback, free port) stopped and
 * deleted at the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { findPgBin, startPgCluster } from "../scripts/pg-cluster";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import { type DatabaseHandle, openDatabase } from "../server/db";
import { EXACT_COUNT_CAP } from "../server/http/list-query";
import { type Cleanup, reportFailure, runCleanups } from "./bench-run";
import { buildFloor, checkSql, createBody, seed } from "./resource-engine-floor";
import { LoadRunner, type LoadSpec } from "./resource-engine-load";
import { cpuNow, type Measured, merge, type Phase, printTable, type Row } from "./resource-engine-report";
import {
  ADMIN,
  CASES,
  CONNECTIONS,
  DEEP_PAGE,
  DRIVERS,
  DURATION,
  env,
  floorListPath,
  listPath,
  PAGE_SIZE,
  PRODUCTS,
  ROUNDS,
  TARGET,
  WARMUP,
} from "./resource-engine-settings";

async function runDriver(driver: "pglite" | "postgres", load: LoadRunner, summary: string[]) {
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
    } else if (env.BENCH_PGLITE_DIR !== "memory") {
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

    const floor = buildFloor(db, admin.id);
    cleanups.unshift(() => floor.close());
    await floor.listen({ port: 0, host: "127.0.0.1" });
    const floorUrl = `http://127.0.0.1:${(floor.server.address() as net.AddressInfo).port}`;

    const signIn = await fetch(`${engineUrl}/api/auth/signin`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "atelier-bench" },
      body: JSON.stringify({ ...ADMIN, deviceInfo: { deviceId: "bench", deviceName: "Benchmark" } }),
    });
    if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const token = ((await signIn.json()) as { accessToken: string }).accessToken;

    const category = (await sql<{ id: string }>`select id from categories order by name limit 1`.execute(db))
      .rows[0];
    const ids = (
      await sql<{ id: string }>`select id from products order by sku_code limit 100 offset 1000`.execute(db)
    ).rows.map((r) => r.id);
    const active = await sql<{
      n: number;
    }>`select count(*)::int as n from products where status = 'active'`.execute(db);
    const sqlCheck = await checkSql(built, admin.id, category.id, active.rows[0].n > EXACT_COUNT_CAP);

    // A sanity request through each path, so a wrong token or URL shows up before the runs.
    const probe = await fetch(`${engineUrl}${listPath(1)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const probeBody = (await probe.json()) as { data: unknown[]; total: number; totalExact: boolean };
    const floorProbe = (await (await fetch(`${floorUrl}${floorListPath(1, "capped")}`)).json()) as {
      total: number;
    };

    console.log(`\n=== ${driver}: ${where}`);
    console.log(
      `seeded 20 categories, 100 sub-categories, ${PRODUCTS} products in ${seedSeconds.toFixed(1)} s (then vacuum analyze); ` +
        `status=active matches ${active.rows[0].n} (${active.rows[0].n > EXACT_COUNT_CAP ? `> cap ${EXACT_COUNT_CAP}: total = planner estimate` : "under the cap: exact total"})`,
    );
    console.log(
      `probe: engine list ${probe.status}, ${probeBody.data?.length} rows, total ${probeBody.total} (exact: ${probeBody.totalExact}); floor total ${floorProbe.total}`,
    );
    console.log("floor SQL vs the engine's (captured from ResourceService with a Kysely plugin):");
    for (const line of sqlCheck) console.log(`  ${line}`);

    const base = { connections: CONNECTIONS };
    const engineSpec = (s: Partial<LoadSpec>): LoadSpec => ({
      ...base,
      url: engineUrl,
      token,
      kind: "fixed",
      ...s,
    });
    const floorSpec = (s: Partial<LoadSpec>): LoadSpec => ({ ...base, url: floorUrl, kind: "fixed", ...s });
    const body = createBody(category.id);
    const rows: Row[] = [];
    const ref = new Map<string, Measured>();
    const phase = async (spec: LoadSpec, seconds: number): Promise<Phase> => {
      const before = cpuNow(postmasterPid);
      const r = await load.run(spec, seconds);
      const after = cpuNow(postmasterPid);
      return { ...r, nodeCpu: after.node - before.node, pgCpu: after.pg - before.pg };
    };
    /** Warm-up each side, then ROUNDS slices alternating engine and floor. */
    const measure = async (
      label: string,
      engine: LoadSpec | null,
      floorS: LoadSpec,
      target: boolean,
      refLabel?: string,
    ) => {
      if (engine) await load.run(engine, WARMUP);
      await load.run(floorS, WARMUP);
      const e: Phase[] = [];
      const f: Phase[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        if (engine) e.push(await phase(engine, DURATION / ROUNDS));
        f.push(await phase(floorS, DURATION / ROUNDS));
      }
      const row: Row = { label, engine: engine ? merge(e) : undefined, floor: merge(f), target };
      rows.push(row);
      if (row.engine) ref.set(label, row.engine);
      else if (refLabel) {
        const r = ref.get(refLabel);
        if (r) ref.set(label, r);
      }
      process.stderr.write(
        `  ${driver} ${label.trim()}: done (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`,
      );
    };

    const L1 = `list p1 ×${PAGE_SIZE}, filter+sort, capped total`;
    const LD = `list p${DEEP_PAGE} ×${PAGE_SIZE}, filter+sort, capped total`;
    const G = "get one (100 ids rotating)";
    const C = "create (unique sku)";
    if (CASES.has("list")) {
      await measure(
        L1,
        engineSpec({ path: listPath(1) }),
        floorSpec({ path: floorListPath(1, "capped") }),
        true,
      );
      const plain = floorSpec({ path: floorListPath(1, "plain") });
      await measure("  └ same, floor with plain count(*)", null, plain, false, L1);
    }
    if (CASES.has("deep")) {
      const engine = engineSpec({ path: listPath(DEEP_PAGE) });
      await measure(LD, engine, floorSpec({ path: floorListPath(DEEP_PAGE, "capped") }), false);
    }
    if (CASES.has("get")) {
      const engine = engineSpec({ kind: "get", prefix: "/api/products", ids });
      await measure(G, engine, floorSpec({ kind: "get", prefix: "/floor/products", ids }), true);
    }
    if (CASES.has("create")) {
      const engine = engineSpec({ kind: "create", path: "/api/products", body, skuPrefix: "BENCH-E" });
      await measure(
        C,
        engine,
        floorSpec({ kind: "create", path: "/floor/products", body, skuPrefix: "BENCH-F" }),
        true,
      );
      const tx = floorSpec({ kind: "create", path: "/floor/products-tx", body, skuPrefix: "BENCH-T" });
      await measure("  └ same, floor insert in begin/commit", null, tx, false, C);
    }
    printTable(driver, rows, ref);
    console.log(
      "ratio = engine req/s ÷ floor req/s. floor: the same SQL by hand (list: page + capped count + explain), no auth, no validation.\n" +
        "engine: + JWT check and session check (auth guard; a session lookup query at most every SESSION_CACHE_MS), Ajv, response schema.",
    );
    for (const row of rows.filter((r) => r.target)) {
      const ratio = (row.engine?.rps ?? 0) / row.floor.rps;
      summary.push(
        `${driver.padEnd(9)} ${row.label.padEnd(44)} ${ratio.toFixed(2)}×  meets 0.6× target: ${ratio >= TARGET ? "yes" : "no"}`,
      );
    }
    for (const row of rows.filter((r) => !r.target && r.engine)) {
      const ratio = (row.engine?.rps ?? 0) / row.floor.rps;
      summary.push(
        `${driver.padEnd(9)} ${row.label.padEnd(44)} ${ratio.toFixed(2)}×  (extra) ${ratio >= TARGET ? "yes" : "no"}`,
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
  console.log("\nsummary (engine ÷ floor; target ≥ 0.6×):");
  for (const line of summary) console.log(`  ${line}`);
  console.log(`\ntotal time ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await main();
