/**
 * One side-by-side setup of the resource engine benchmark (bench/resource-engine.ts): the
 * database for a driver, the real app on it, a signed-in token, the module lists' type and form
 * made through its admin API (bench/module-lists-setup.ts), the seeded rows, the floor in its
 * own process, a probe through each side, and the statements one request of each case sends.
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
import type { Cleanup } from "./bench-run";
import type { ModuleCase, ModuleIds } from "./module-lists";
import { MODULE_FIXTURE_TABLES, MODULE_ROWS } from "./module-lists-seed";
import { makeModuleFixtures, moduleRequests, probeModules, selectedModuleCases } from "./module-lists-setup";
import { pgStatementsSettings } from "./pg-statements";
import { captureStatements } from "./resource-engine-capture";
import {
  benchData,
  createBody,
  exportRows,
  type FloorProcess,
  seed,
  startFloorProcess,
  updateBody,
} from "./resource-engine-floor";
import {
  ADMIN,
  CASES,
  type Driver,
  floorListPath,
  listPath,
  PGLITE_IN_MEMORY,
  PRODUCTS,
} from "./resource-engine-settings";

/** Both sides of one driver, ready to be loaded. */
export interface Sides {
  engineUrl: string;
  token: string;
  floor: FloorProcess;
  floorUrl: string;
  /** When the floor's process was forked, in seconds of this process's uptime (for --cpu-prof windows). */
  floorForkedAt: number;
  /** The PostgreSQL server's process (its CPU time is reported), null on PGlite. */
  postmasterPid: number | null;
  data: Awaited<ReturnType<typeof benchData>>;
  /** The module cases selected, and what their paths need (null: none selected). */
  modules: { cases: ModuleCase[]; ids: ModuleIds } | null;
}

/** The real app for a driver, listening on a loopback port (shared with bench/cms-public.ts). */
export interface StartedApp {
  url: string;
  database: DatabaseHandle;
  /** postgres:// URL of its database, null on PGlite. */
  databaseUrl: string | null;
  /** The PostgreSQL server's process (its CPU time is reported), null on PGlite. */
  postmasterPid: number | null;
  /** Where its database is, as printed. */
  where: string;
  /** Stops the app (its server and job queue), leaving its database open. */
  stop(): Promise<void>;
}

/**
 * Starts the database for `driver` (a throwaway PostgreSQL cluster, or PGlite in a temp data
 * dir or in memory) and the real app on it, registering their cleanups; `env` is added to the
 * app's settings. Null when the driver is unavailable.
 */
export async function startApp(
  driver: Driver,
  cleanups: Cleanup[],
  env: Record<string, string> = {},
): Promise<StartedApp | null> {
  let databaseUrl: string | null = null;
  let pgliteDir = "memory://";
  let where = "PGlite in memory";
  let postmasterPid: number | null = null;
  if (driver === "postgres") {
    const bin = findPgBin();
    if (!bin) {
      console.log("\npostgres: skipped (no PostgreSQL binaries; set PG_BIN)");
      return null;
    }
    const cluster = await startPgCluster(bin, {
      tempPrefix: "atelier-bench-pg-",
      settings: pgStatementsSettings(),
    });
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
    ...env,
  });
  const database: DatabaseHandle = await openDatabase({ databaseUrl, pgliteDir });
  cleanups.unshift(() => database.close());
  const built = await buildApp({ config, database, logger: false });
  let closing: Promise<void> | undefined;
  const stop = () => {
    closing ??= built.app.close();
    return closing;
  };
  cleanups.unshift(stop);
  await built.app.listen({ port: 0, host: "127.0.0.1" });
  const url = `http://127.0.0.1:${(built.app.server.address() as net.AddressInfo).port}`;
  return { url, database, databaseUrl, postmasterPid, where, stop };
}

/** Signs the bench's admin in through the app; its access token. */
export async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/signin`, {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": "atelier-bench" },
    body: JSON.stringify({ ...ADMIN, deviceInfo: { deviceId: "bench", deviceName: "Benchmark" } }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** Starts both sides for `driver`, registering their cleanups; null when the driver is unavailable. */
export async function startSides(driver: Driver, cleanups: Cleanup[]): Promise<Sides | null> {
  const started = await startApp(driver, cleanups);
  if (!started) return null;
  const { url: engineUrl, database, databaseUrl, postmasterPid, where } = started;

  const { db } = database;
  const admin = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", ADMIN.email)
    .executeTakeFirstOrThrow();
  const token = await signIn(engineUrl);
  const auth = { authorization: `Bearer ${token}` };
  const cases = selectedModuleCases();
  // The type and the form the module lists' rows belong to, through the admin API.
  const modules = cases.length ? { cases, ids: await makeModuleFixtures(engineUrl, token) } : null;
  const tSeed = Date.now();
  await seed(db, admin.id, Boolean(modules));
  const seedSeconds = (Date.now() - tSeed) / 1000;
  const data = await benchData((text, params) =>
    db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, params)),
  );

  const tFloor = Date.now();
  const floorForkedAt = process.uptime();
  const floor = await startFloorProcess({
    databaseUrl,
    inMemory: PGLITE_IN_MEMORY,
    adminId: admin.id,
    fixtures: modules && !databaseUrl ? await exportRows(db, MODULE_FIXTURE_TABLES) : undefined,
  });
  cleanups.unshift(() => floor.stop());
  const floorSeconds = (Date.now() - tFloor) / 1000;
  const floorUrl = floor.ready.url;

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
    `seeded 20 categories, 100 sub-categories, ${PRODUCTS} products${modules ? `, ${MODULE_ROWS} each of clients, proposals, automations, CMS entries and form submissions` : ""} in ${seedSeconds.toFixed(1)} s (then vacuum analyze); ` +
      `floor ready in ${floorSeconds.toFixed(1)} s: ${floor.ready.where}`,
  );
  console.log(
    `probe: engine list ${probe.data?.length} rows of total ${probe.total}; floor list ${floorProbe.data.length} rows of total ${floorProbe.total}`,
  );
  if (modules) await probeModules(engineUrl, token, floorUrl, modules.ids, modules.cases);

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
    ...(modules ? moduleRequests(engineUrl, token, modules.ids, modules.cases) : {}),
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
  if (modules) {
    console.log("floor statements of the module lists (one each):");
    for (const c of modules.cases) console.log(`  ${c.name}: ${c.sql.replace(/\s+/g, " ")}`);
  }

  return { engineUrl, token, floor, floorUrl, floorForkedAt, postmasterPid, data, modules };
}
