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
 * Load comes from autocannon in a child process (this file, forked with `--load-child`), so
 * the load generator does not share the servers' event loop. PostgreSQL is a throwaway
 * cluster (scripts/pg-cluster.ts: initdb/pg_ctl, stock settings, loopback, free port) stopped and
 * deleted at the end.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import { CompiledQuery, type Kysely, type KyselyPlugin, PostgresQueryCompiler, sql } from "kysely";
import { resourceByName } from "../resources/index";
import { products as productsDef } from "../resources/products";
import { findPgBin, startPgCluster } from "../scripts/pg-cluster";
import { type App, buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import { type Database, type DatabaseHandle, openDatabase } from "../server/db";
import { EXACT_COUNT_CAP } from "../server/http/list-query";
import { ResourceService } from "../server/resources/service";
import {
  type Autocannon,
  type AutocannonRequest,
  type Cleanup,
  reportFailure,
  runCleanups,
} from "./bench-run";

// ---------------------------------------------------------------------------------------------
// Load child: runs autocannon on request of the parent, over IPC.
// ---------------------------------------------------------------------------------------------

interface LoadSpec {
  url: string;
  kind: "fixed" | "get" | "create";
  /** Path of a fixed request (lists) or of `create`. */
  path?: string;
  /** Path prefix of `get` (id appended, rotating over `ids`). */
  prefix?: string;
  ids?: string[];
  /** Body of `create`; `sku_code` is replaced by a unique one per request. */
  body?: Record<string, unknown>;
  skuPrefix?: string;
  token?: string;
  connections: number;
}

/** One autocannon run, as the child reports it. */
interface PhaseResult {
  seconds: number;
  requests: number;
  /** Response times, ms, of every response. */
  latencies: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
}

async function runLoad(spec: LoadSpec, seconds: number, salt: string): Promise<PhaseResult> {
  const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
  const headers: Record<string, string> = {};
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
  } else {
    let n = 0;
    request = {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      setupRequest: (req) => ({
        ...req,
        path: spec.path,
        body: JSON.stringify({ ...spec.body, sku_code: `${spec.skuPrefix}-${salt}-${n++}` }),
      }),
    };
  }
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
  };
}

function loadChild() {
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
class LoadRunner {
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

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

const env = process.env;
const DURATION = Number(env.BENCH_DURATION || 8);
const WARMUP = 2;
/** Engine and floor alternate in this many slices of DURATION / ROUNDS each (ABAB), against drift. */
const ROUNDS = 2;
const CONNECTIONS = Number(env.BENCH_CONNECTIONS || 10);
const PRODUCTS = Number(env.BENCH_PRODUCTS || 100_000);
const PAGE_SIZE = 25;
const DEEP_PAGE = 25;
const TARGET = 0.6;
const ADMIN = { email: "bench-admin@example.com", password: "Bench-Passw0rd!" };
const DRIVERS = (env.BENCH_DRIVERS || "pglite,postgres").split(",").map((d) => d.trim()) as Array<
  "pglite" | "postgres"
>;
const CASES = new Set((env.BENCH_CASES || "list,deep,get,create").split(",").map((c) => c.trim()));
const FILTERS = encodeURIComponent(JSON.stringify([{ field: "status", operator: "eq", value: "active" }]));
const listPath = (page: number) =>
  `/api/products?page=${page}&pageSize=${PAGE_SIZE}&sort=-price&filters=${FILTERS}`;
const floorListPath = (page: number, count: "capped" | "plain") =>
  `/floor/products?status=active&page=${page}&pageSize=${PAGE_SIZE}&count=${count}`;

// ---------------------------------------------------------------------------------------------
// CPU accounting: this process (servers; PGlite runs here too) and the PostgreSQL processes
// ---------------------------------------------------------------------------------------------

const CLOCK_TICK_US = 10_000; // USER_HZ = 100 on Linux

/** utime + stime (µs) of the postmaster and its children; 0 without a cluster or /proc. */
function postgresCpu(postmasterPid: number | null): number {
  if (!postmasterPid) return 0;
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pid = Number(entry);
      if (pid !== postmasterPid && Number(fields[1]) !== postmasterPid) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process went away
    }
  }
  return ticks * CLOCK_TICK_US;
}

interface CpuSample {
  node: number;
  pg: number;
}

function cpuNow(postmasterPid: number | null): CpuSample {
  const u = process.cpuUsage();
  return { node: u.user + u.system, pg: postgresCpu(postmasterPid) };
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

async function seed(db: Kysely<Database>, adminId: string) {
  await sql`
    insert into categories (name, products_cat_id, created_by, updated_by)
    select 'Category ' || lpad(g::text, 2, '0'), g, ${adminId}::uuid, ${adminId}::uuid
    from generate_series(0, 19) g`.execute(db);
  // Sub-category s (0..99) belongs to category s % 20.
  await sql`
    insert into sub_categories (name, category_id, created_by, updated_by)
    select 'Sub-category ' || lpad(g::text, 3, '0'), c.id, ${adminId}::uuid, ${adminId}::uuid
    from generate_series(0, 99) g join categories c on c.products_cat_id = g % 20`.execute(db);
  // Product g: sub-category g % 100 (so category g % 20), status draft/active/archived by g % 3.
  const batch = 20_000;
  for (let from = 0; from < PRODUCTS; from += batch) {
    const to = Math.min(from + batch, PRODUCTS) - 1;
    await sql`
      insert into products (sku_code, name, description, price, currency, category_id, sub_category_id, status,
                            images, created_by, updated_by, created_at, updated_at)
      select 'SKU-' || lpad(g::text, 7, '0'),
             'Product ' || g,
             'Seeded product number ' || g || ' for the resource engine benchmark',
             ((g * 7919) % 100000) / 100.0 + 1,
             (array['INR', 'USD', 'EUR', 'GBP'])[g % 4 + 1],
             s.category_id,
             s.id,
             (array['draft', 'active', 'archived'])[g % 3 + 1],
             case when g % 5 = 0 then jsonb_build_array('https://cdn.example.com/p/' || g || '.jpg') end,
             ${adminId}::uuid, ${adminId}::uuid,
             now() - make_interval(secs => g), now() - make_interval(secs => g)
      from generate_series(${from}::int, ${to}::int) g
      join (select id, category_id, (row_number() over (order by name))::int - 1 as n from sub_categories) s
        on s.n = g % 100`.execute(db);
  }
  await sql`vacuum analyze categories`.execute(db);
  await sql`vacuum analyze sub_categories`.execute(db);
  await sql`vacuum analyze products`.execute(db);
}

// ---------------------------------------------------------------------------------------------
// The floor: bare Fastify, same database handle, the engine's SQL sent by hand
// ---------------------------------------------------------------------------------------------

const FLOOR_SQL = {
  page: `select "t".* from "products" as "t" where "t"."status" = $1 order by "t"."price" desc, "t"."id" asc limit $2 offset $3`,
  cappedCount: `select count(*)::int as "n" from (select 1 as "one" from "products" as "t" where "t"."status" = $1 limit $2) as "m"`,
  matching: `select 1 as "one" from "products" as "t" where "t"."status" = $1`,
  plainCount: `select count(*)::int as "n" from "products" where "status" = $1`,
  get: `select * from "products" where "id" = $1`,
  insert: `insert into "products" ("name", "description", "price", "currency", "category_id", "status", "sku_code", "created_by", "updated_by") values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *`,
};

function buildFloor(db: Kysely<Database>, adminId: string): FastifyInstance {
  const floor = Fastify({ logger: false });
  const run = <R>(text: string, params: unknown[]) => db.executeQuery<R>(CompiledQuery.raw(text, params));

  floor.get<{ Querystring: { status: string; page?: string; pageSize?: string; count?: string } }>(
    "/floor/products",
    async (request) => {
      const { status, count } = request.query;
      const page = Number(request.query.page ?? 1);
      const pageSize = Number(request.query.pageSize ?? 10);
      const pageQuery = run(FLOOR_SQL.page, [status, pageSize, (page - 1) * pageSize]);
      if (count === "plain") {
        const [rows, counted] = await Promise.all([
          pageQuery,
          run<{ n: number }>(FLOOR_SQL.plainCount, [status]),
        ]);
        return { data: rows.rows, total: counted.rows[0].n, totalExact: true };
      }
      const [rows, capped] = await Promise.all([
        pageQuery,
        run<{ n: number }>(FLOOR_SQL.cappedCount, [status, EXACT_COUNT_CAP + 1]),
      ]);
      const n = capped.rows[0].n;
      if (n <= EXACT_COUNT_CAP) return { data: rows.rows, total: n, totalExact: true };
      const plan = await run<{ "QUERY PLAN": unknown }>(`explain (format json) ${FLOOR_SQL.matching}`, [
        status,
      ]);
      const raw = plan.rows[0]["QUERY PLAN"];
      const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{
        Plan: { "Plan Rows": number };
      }>;
      return {
        data: rows.rows,
        total: Math.max(Math.round(parsed[0].Plan["Plan Rows"]), n),
        totalExact: false,
      };
    },
  );

  floor.get<{ Params: { id: string } }>("/floor/products/:id", async (request, reply) => {
    const { rows } = await run(FLOOR_SQL.get, [request.params.id]);
    if (!rows.length) return reply.status(404).send({ message: "not found" });
    return rows[0];
  });

  const insertParams = (b: Record<string, unknown>) => [
    b.name,
    b.description,
    b.price,
    b.currency,
    b.category_id,
    b.status,
    b.sku_code,
    adminId,
    adminId,
  ];
  floor.post<{ Body: Record<string, unknown> }>("/floor/products", async (request, reply) => {
    const { rows } = await run(FLOOR_SQL.insert, insertParams(request.body));
    return reply.status(201).send(rows[0]);
  });
  // Extra: the same insert wrapped in begin/commit, as the engine writes.
  floor.post<{ Body: Record<string, unknown> }>("/floor/products-tx", async (request, reply) => {
    const row = await db
      .transaction()
      .execute(
        async (trx) =>
          (await trx.executeQuery(CompiledQuery.raw(FLOOR_SQL.insert, insertParams(request.body)))).rows[0],
      );
    return reply.status(201).send(row);
  });
  return floor;
}

/** Runs the engine's service once with a query-capturing plugin and compares its SQL with the floor's. */
async function checkSql(
  built: App,
  adminId: string,
  categoryId: string,
  overCap: boolean,
): Promise<string[]> {
  const captured: string[] = [];
  const compiler = new PostgresQueryCompiler();
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      captured.push(compiler.compileQuery(args.node, args.queryId).sql);
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  const db = built.ctx.db.withPlugin(plugin);
  const service = new ResourceService({ ...built.ctx, db }, productsDef, resourceByName, {});
  const filters = JSON.stringify([{ field: "status", operator: "eq", value: "active" }]);
  await service.list({ page: 1, pageSize: PAGE_SIZE, sort: "-price", filters });
  const afterList = captured.length;
  await service.get((await service.list({ pageSize: 1 })).data[0].id as string);
  const afterGet = captured.length;
  const created = await service.create({ ...createBody(categoryId), sku_code: "BENCH-SQL-CHECK" }, adminId);
  await service.remove([created.id as string], adminId, true);
  const has = (text: string, from: number, to: number) => captured.slice(from, to).includes(text);
  return [
    `list page query     ${has(FLOOR_SQL.page, 0, afterList) ? "same" : "DIFFERENT"}`,
    `list capped count   ${has(FLOOR_SQL.cappedCount, 0, afterList) ? "same" : "DIFFERENT"}`,
    `list explain (>cap) ${overCap ? (has(FLOOR_SQL.matching, 0, afterList) ? "same" : "DIFFERENT") : "not sent (matches under the cap)"}`,
    `get one             ${has(FLOOR_SQL.get, afterList, afterGet) ? "same" : "DIFFERENT"}`,
    `create insert       ${has(FLOOR_SQL.insert, afterGet, captured.length) ? "same" : "DIFFERENT"} (one statement: no rule needs a read first)`,
  ];
}

const createBody = (categoryId: string) => ({
  name: "Bench product",
  description: "Created by the resource engine benchmark",
  price: 12.5,
  currency: "USD",
  category_id: categoryId,
  status: "draft",
  sku_code: "placeholder",
});

// ---------------------------------------------------------------------------------------------
// Running one driver
// ---------------------------------------------------------------------------------------------

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  /** CPU per request (µs) in this process (Node; PGlite too) and in PostgreSQL. */
  nodeCpu: number;
  pgCpu: number;
}

interface Phase extends PhaseResult {
  nodeCpu: number;
  pgCpu: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function merge(phases: Phase[]): Measured {
  const sum = (f: (p: Phase) => number) => phases.reduce((a, p) => a + f(p), 0);
  const latencies = phases.flatMap((p) => p.latencies).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const p of phases)
    for (const [c, n] of Object.entries(p.statuses)) statuses[c] = (statuses[c] ?? 0) + n;
  const requests = sum((p) => p.requests);
  return {
    rps: requests / sum((p) => p.seconds),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests,
    non2xx: sum((p) => p.non2xx),
    errors: sum((p) => p.errors),
    timeouts: sum((p) => p.timeouts),
    statuses,
    nodeCpu: sum((p) => p.nodeCpu) / Math.max(requests, 1),
    pgCpu: sum((p) => p.pgCpu) / Math.max(requests, 1),
  };
}

interface Row {
  label: string;
  engine?: Measured;
  floor: Measured;
  /** Counts toward the 0.6× target. */
  target: boolean;
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

function problems(r: Measured): string {
  const bad = r.non2xx + r.errors + r.timeouts;
  if (!bad) return "";
  const codes = Object.entries(r.statuses)
    .filter(([c]) => !c.startsWith("2"))
    .map(([c, n]) => `${c}×${n}`)
    .join(" ");
  return ` [!${r.non2xx} non-2xx ${codes}, ${r.errors} errors, ${r.timeouts} timeouts]`;
}

function printTable(driver: string, rows: Row[], engineRef: Map<string, Measured>) {
  const header = `${pad("case", 44)}${lpad("engine req/s", 13)}${lpad("p99 ms", 8)}${lpad("floor req/s", 13)}${lpad("p99 ms", 8)}${lpad("ratio", 8)}`;
  console.log(
    `\n${driver}: ${CONNECTIONS} connections; per case and side ${WARMUP} s warm-up, then ${DURATION} s measured in ${ROUNDS} slices alternating engine/floor`,
  );
  console.log(header);
  console.log("-".repeat(header.length));
  for (const row of rows) {
    const engine = row.engine ?? engineRef.get(row.label);
    const e = row.engine;
    const ratio = engine ? engine.rps / row.floor.rps : Number.NaN;
    console.log(
      `${pad(row.label, 44)}${lpad(e ? fmt(e.rps) : "(row above)", 13)}${lpad(e ? fmt(e.p99) : "", 8)}${lpad(fmt(row.floor.rps), 13)}${lpad(fmt(row.floor.p99), 8)}${lpad(`${fmt(ratio, 2)}×`, 8)}${e ? problems(e) : ""}${problems(row.floor)}`,
    );
  }
  const cpu = (m: Measured) => `${lpad(fmt(m.nodeCpu), 7)} +${lpad(fmt(m.pgCpu), 6)}`;
  console.log(`
CPU per request, µs (node process incl. PGlite + postgres processes; the load generator excluded)`);
  console.log(`${pad("case", 44)}${lpad("engine node + pg", 17)}${lpad("floor node + pg", 17)}`);
  for (const row of rows) {
    console.log(
      `${pad(row.label, 44)}${lpad(row.engine ? cpu(row.engine) : "(above)", 17)}${lpad(cpu(row.floor), 17)}`,
    );
  }
}

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

if (process.argv[2] === "--load-child") loadChild();
else await main();
