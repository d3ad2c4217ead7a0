/**
 * CRM clients benchmark (issue 16): 100,000 clients on PostgreSQL, the clients list filtered on
 * a CUSTOM field with its total, through the real app (auth guard, the custom fields read from
 * the shared cache, the effective schema, the filter on `custom ->> key` with its key bound,
 * records flattened, response serialisation, compression as shipped) against a floor, in the
 * same run on the same rows. Prints requests/s, p99, the ratio app ÷ floor and whether it
 * reaches the 0.6× target. Figures only; nothing is asserted.
 *
 *   npx tsx bench/crm-clients.ts          (or: npm run bench:crm)
 *
 * The custom fields are made through the admin API, as an admin would (`tier`, a choice from
 * the `company_tier` list, and `industry_size`, a number); the app's job then builds their
 * expression indexes (server/modules/crm/custom-field-indexes.ts). The rows are inserted by
 * SQL (bench/module-lists-seed.ts `insertClients`, as the engine bench's clients list):
 * 100,000 clients, tier 1 in 5 each, industry size 0–999.
 *
 * Cases (page 1 of 25, newest updated first, with the total):
 *   - tier = gold: 20,000 matches, so the app's total is its capped count (10,001 rows) and the
 *     planner's estimate (docs/resource-api.md, "Totals"); the floor counts all 20,000;
 *   - industry size 100–104: 500 matches, counted exactly by both.
 *
 * The floor (bench/crm-clients-floor.ts) is a bare Fastify 5 server in a process of its own with
 * its own `pg` Pool (max 10, as the app's) on the same database: ONE statement per request, the
 * page and its exact total, with the same expressions (so the same indexes serve it). No auth,
 * no validation, no response schema.
 *
 * Environment (all optional; the engine bench's, bench/resource-engine-settings.ts):
 *   BENCH_DURATION=8  BENCH_ROUNDS=4  BENCH_WARMUP=2  BENCH_CONNECTIONS=10
 *   BENCH_CRM_CLIENTS=100000        clients seeded
 *   BENCH_CRM_WITHOUT_INDEX=1       also measure both sides again with the custom-field indexes dropped
 *   PG_BIN=/usr/lib/postgresql/15/bin
 * Defaults: about 2 minutes on 2 cores.
 */
import os from "node:os";
import { sql } from "kysely";
import { type Cleanup, reportFailure, runCleanups } from "./bench-run";
import { startCrmFloor } from "./crm-clients-floor";
import { CLIENT_TIERS, insertClients } from "./module-lists-seed";
import { captureStatements } from "./resource-engine-capture";
import { measureSides } from "./resource-engine-cases";
import { LoadRunner, type LoadSpec } from "./resource-engine-load";
import { fmt, lpad, type Measured, pad, problems } from "./resource-engine-report";
import { CONNECTIONS, DURATION, env, ROUNDS, WARMUP } from "./resource-engine-settings";
import { signIn, startApp } from "./resource-engine-setup";

const CLIENTS = Number(env.BENCH_CRM_CLIENTS || 100_000);
const WITHOUT_INDEX = env.BENCH_CRM_WITHOUT_INDEX === "1";
const TARGET = 0.6;
const PAGE_SIZE = 25;
const INDEXES = ["clients_cf_industry_size_n", "clients_cf_tier_t"];

const filters = (f: unknown[]) => encodeURIComponent(JSON.stringify(f));
const CASES = [
  {
    label: "tier = gold (1 in 5)",
    app: `/crm/clients?pageSize=${PAGE_SIZE}&filters=${filters([{ field: "tier", operator: "eq", value: "gold" }])}`,
    floor: `/floor/clients/tier?tier=gold&pageSize=${PAGE_SIZE}`,
  },
  {
    label: "industry size 100–104 (1 in 200)",
    app: `/crm/clients?pageSize=${PAGE_SIZE}&filters=${filters([
      { field: "industry_size", operator: "gte", value: 100 },
      { field: "industry_size", operator: "lte", value: 104 },
    ])}`,
    floor: `/floor/clients/size?from=100&to=104&pageSize=${PAGE_SIZE}`,
  },
];

async function api(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ data: unknown[]; total: number }>;
}

interface Row {
  label: string;
  app: Measured;
  floor: Measured;
}

function printRows(title: string, rows: Row[]) {
  const header = `${pad("case", 36)}${lpad("app req/s", 11)}${lpad("p99 ms", 8)}${lpad("floor req/s", 13)}${lpad("p99 ms", 8)}${lpad("ratio", 8)}${lpad(`≥ ${TARGET}×`, 7)}`;
  console.log(
    `\n${title}: ${CONNECTIONS} connections; ${WARMUP} s warm-up, then ${DURATION} s in ${ROUNDS} slices alternating app/floor`,
  );
  console.log(header);
  console.log("-".repeat(header.length));
  for (const { label, app, floor } of rows) {
    const ratio = app.rps / floor.rps;
    console.log(
      `${pad(label, 36)}${lpad(fmt(app.rps), 11)}${lpad(fmt(app.p99), 8)}${lpad(fmt(floor.rps), 13)}${lpad(fmt(floor.p99), 8)}${lpad(`${fmt(ratio, 2)}×`, 8)}${lpad(ratio >= TARGET ? "yes" : "NO", 7)}${problems(app)}${problems(floor)}`,
    );
  }
  console.log(
    `${pad("CPU per request, µs (node + postgres)", 36)}${rows.map((r) => ` ${r.label}: app ${fmt(r.app.nodeCpu)} + ${fmt(r.app.pgCpu)}, floor ${fmt(r.floor.nodeCpu)} + ${fmt(r.floor.pgCpu)}`).join(";")}`,
  );
}

async function main() {
  console.log(
    `CRM clients benchmark — node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ""}`,
  );
  const cleanups: Cleanup[] = [];
  const load = new LoadRunner();
  const t0 = Date.now();
  try {
    const started = await startApp("postgres", cleanups);
    if (!started?.databaseUrl) return;
    const { url, database, databaseUrl, postmasterPid, where } = started;
    const { db } = database;
    const token = await signIn(url);
    for (const [i, value] of CLIENT_TIERS.entries())
      await api(url, token, "POST", "/crm/dropdowns", {
        list: "company_tier",
        value,
        label: value,
        position: i,
      });
    await api(url, token, "POST", "/crm/custom-fields", {
      entity: "clients",
      key: "tier",
      label: "Tier",
      type: "enum",
      list: "company_tier",
    });
    await api(url, token, "POST", "/crm/custom-fields", {
      entity: "clients",
      key: "industry_size",
      label: "Industry size",
      type: "number",
    });

    const tSeed = Date.now();
    await insertClients(db, CLIENTS);
    // The indexes are the job's (enqueued with each field): wait for them, as a deployment would.
    for (;;) {
      const found = await sql<{ n: number }>`select count(*)::int as n from pg_indexes
        where indexname in (${sql.join(INDEXES)})`.execute(db);
      if (found.rows[0].n === INDEXES.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await sql`vacuum analyze clients`.execute(db);
    console.log(`\n=== postgres: ${where}`);
    console.log(
      `seeded ${CLIENTS.toLocaleString("en")} clients in ${((Date.now() - tSeed) / 1000).toFixed(1)} s; indexes ${INDEXES.join(", ")} built by the app's job`,
    );

    const floorForkedAt = process.uptime();
    const floor = await startCrmFloor({ databaseUrl });
    cleanups.unshift(() => floor.stop());
    for (const c of CASES) {
      const capture = captureStatements();
      const app = await api(url, token, "GET", c.app);
      const statements = capture.stop();
      const floorAnswer = (await (await fetch(`${floor.ready.url}${c.floor}`)).json()) as {
        data: unknown[];
        total: number;
      };
      console.log(
        `probe ${c.label}: app ${app.data.length} rows of total ${app.total}; floor ${floorAnswer.data.length} rows of total ${floorAnswer.total}`,
      );
      for (const s of statements) console.log(`  app sends: ${s.length > 200 ? `${s.slice(0, 197)}...` : s}`);
    }

    const measure = async (title: string) => {
      const rows: Row[] = [];
      for (const c of CASES) {
        const spec = (side: "app" | "floor"): LoadSpec => ({
          kind: "fixed",
          connections: CONNECTIONS,
          url: side === "app" ? url : floor.ready.url,
          path: side === "app" ? c.app : c.floor,
          ...(side === "app" ? { token } : {}),
        });
        const [a, f] = await measureSides(
          load,
          [
            { spec: spec("app"), process: "engine" },
            { spec: spec("floor"), process: "floor" },
          ],
          { floorPid: floor.pid, floorForkedAt, postmasterPid },
        );
        rows.push({ label: c.label, app: a.measured, floor: f.measured });
        process.stderr.write(`  ${title} ${c.label}: done (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
      }
      printRows(title, rows);
      return rows;
    };
    const indexed = await measure("postgres, with the custom-field indexes");
    if (WITHOUT_INDEX) {
      for (const name of INDEXES) await sql.raw(`drop index ${name}`).execute(db);
      await measure("postgres, WITHOUT the custom-field indexes");
    }
    console.log(`\nsummary (app ÷ floor; target ≥ ${TARGET}×):`);
    for (const r of indexed) console.log(`  ${pad(r.label, 36)} ${fmt(r.app.rps / r.floor.rps, 2)}×`);
  } catch (error) {
    reportFailure("postgres", error);
  } finally {
    load.stop();
    await runCleanups(cleanups);
  }
  console.log(`\ntotal time ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

await main();
