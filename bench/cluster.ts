/**
 * Cluster benchmark (issue 11): list-with-total and create throughput through the local
 * cluster's proxy (scripts/cluster.ts) with 1 and with 2 instances on the same PostgreSQL, and
 * the proxy's own cost beside the floor: the same requests sent straight to one instance.
 * Prints figures only. On a 2-core machine a second instance competes with the first, the
 * proxy and PostgreSQL for the same cores: expect overhead there, not speed-up.
 *
 *   npx tsx bench/cluster.ts          (or: npm run bench:cluster)
 *
 * Environment (all optional):
 *   BENCH_DURATION=5        seconds measured per row (after a 1 s warm-up)
 *   BENCH_CONNECTIONS=10    autocannon connections
 *   BENCH_CATEGORIES=5000   categories seeded (the list counts them all)
 *   PG_BIN=/usr/lib/postgresql/15/bin
 *
 * PostgreSQL is a throwaway cluster (scripts/pg-cluster.ts), the instances are real server
 * processes, and the load comes from autocannon in a child process (this file, forked with
 * `--load-child`), so neither shares the proxy's event loop.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { type Cluster, startCluster } from "../scripts/cluster";
import { findPgBin, startPgCluster } from "../scripts/pg-cluster";
import {
  type Autocannon,
  type AutocannonRequest,
  type Cleanup,
  reportFailure,
  runCleanups,
} from "./bench-run";

interface LoadSpec {
  url: string;
  kind: "list" | "create";
  token: string;
  seconds: number;
  connections: number;
}

interface Figures {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

const LIST_PATH = "/api/categories?page=1&pageSize=25&sort=-created_at";

// ---------------------------------------------------------------------------------------------
// Load child: one autocannon run per message from the parent.
// ---------------------------------------------------------------------------------------------

async function runLoad(spec: LoadSpec, salt: string): Promise<Figures> {
  const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
  const headers = { authorization: `Bearer ${spec.token}` };
  let n = 0;
  const request: AutocannonRequest =
    spec.kind === "list"
      ? { method: "GET", path: LIST_PATH, headers }
      : {
          method: "POST",
          path: "/api/categories",
          headers: { ...headers, "content-type": "application/json" },
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: `Bench ${salt}-${n++}` }) }),
        };
  const r = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds,
    requests: [request],
  });
  return { rps: r.requests.total / r.duration, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

function forkLoad(): { run(spec: LoadSpec): Promise<Figures>; stop(): void } {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--load-child"], {
    execArgv: process.execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let next = 1;
  const pending = new Map<number, (error: Error) => void>();
  child.once("exit", () => {
    for (const reject of pending.values()) reject(new Error("load child exited"));
  });
  return {
    run(spec) {
      const id = next++;
      return new Promise((resolve, reject) => {
        const onMessage = (m: { id: number; result?: Figures; error?: string }) => {
          if (m.id !== id) return;
          child.off("message", onMessage);
          pending.delete(id);
          if (m.result) resolve(m.result);
          else reject(new Error(m.error ?? "load child failed"));
        };
        child.on("message", onMessage);
        pending.set(id, reject);
        child.send({ id, spec });
      });
    },
    stop() {
      if (child.connected) child.disconnect();
      if (child.exitCode === null) child.kill();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

const env = process.env;
const DURATION = Number(env.BENCH_DURATION || 5);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS || 10);
const CATEGORIES = Number(env.BENCH_CATEGORIES || 5000);
const ADMIN = { email: "bench-admin@example.com", password: "Bench-Passw0rd!" };

const fmt = (n: number, digits = 0) => n.toFixed(digits);
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);
const problems = (f: Figures) => (f.non2xx || f.errors ? `  (non-2xx ${f.non2xx}, errors ${f.errors})` : "");

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/signin`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0",
    },
    body: JSON.stringify({ ...ADMIN, deviceInfo: { deviceId: "bench", deviceName: "Linux Chrome" } }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function seed(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into categories (name, products_cat_id, created_by, updated_by)
       select 'Seeded ' || g, g, u.id, u.id from generate_series(1, $1::int) g, (select id from users limit 1) u`,
      [CATEGORIES],
    );
    await client.query("vacuum analyze categories");
  } finally {
    await client.end();
  }
}

async function main() {
  const bin = findPgBin();
  if (!bin) {
    console.log("bench:cluster needs PostgreSQL binaries (/usr/lib/postgresql/<n>/bin or PG_BIN)");
    process.exitCode = 1;
    return;
  }
  console.log(
    `Cluster bench: ${os.cpus().length} cores, ${DURATION} s per row, ${CONNECTIONS} connections, ${CATEGORIES} categories`,
  );
  const cleanups: Cleanup[] = [];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-bench-cluster-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = forkLoad();
  cleanups.unshift(() => load.stop());
  try {
    const pgCluster = await startPgCluster(bin, { settings: { max_connections: 200 } });
    cleanups.push(() => pgCluster.stop());
    const url = new URL(pgCluster.url);
    const rows: Array<{ label: string; kind: LoadSpec["kind"]; figures: Figures; ref?: Figures }> = [];

    for (const instances of [1, 2]) {
      const cluster: Cluster = await startCluster({
        instances,
        port: 0,
        log: () => {},
        env: {
          DATABASE_URL: url.toString(),
          DATA_DIR: dataDir,
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
          LOG_LEVEL: "warn",
          CLIENT_DIR: "/nonexistent",
          // The bench's one client address would otherwise hit the per-IP limits.
          AUTH_MAX_ATTEMPTS_IP: "100000",
        },
      });
      try {
        if (instances === 1) await seed(url.toString());
        const token = await signIn(cluster.url);
        const direct = cluster.instances[0].url;
        for (const kind of ["list", "create"] as const) {
          const measure = async (target: string) => {
            await load.run({ url: target, kind, token, seconds: 1, connections: CONNECTIONS });
            return load.run({ url: target, kind, token, seconds: DURATION, connections: CONNECTIONS });
          };
          const name = kind === "list" ? "list + total" : "create";
          const floor = await measure(direct);
          rows.push({ label: `${name}, ${instances} inst., straight to one instance`, kind, figures: floor });
          const proxied = await measure(cluster.url);
          rows.push({
            label: `${name}, ${instances} inst., through the proxy`,
            kind,
            figures: proxied,
            ref: floor,
          });
        }
      } finally {
        await cluster.stop();
      }
    }

    console.log(`\n${pad("case", 52)}${lpad("req/s", 9)}${lpad("p99 ms", 9)}${lpad("÷ direct", 10)}`);
    for (const row of rows) {
      const ratio = row.ref ? `${fmt(row.figures.rps / row.ref.rps, 2)}×` : "";
      console.log(
        `${pad(row.label, 52)}${lpad(fmt(row.figures.rps), 9)}${lpad(fmt(row.figures.p99), 9)}${lpad(ratio, 10)}${problems(row.figures)}`,
      );
    }
    for (const kind of ["list", "create"] as const) {
      const proxied = rows.filter((r) => r.kind === kind && r.ref);
      if (proxied.length === 2) {
        console.log(
          `${kind === "list" ? "list + total" : "create"}: 2 instances ÷ 1 instance through the proxy = ${fmt(proxied[1].figures.rps / proxied[0].figures.rps, 2)}×`,
        );
      }
    }
  } catch (error) {
    reportFailure("cluster", error);
  } finally {
    await runCleanups(cleanups);
  }
}

// Last: main() reads the settings above.
if (process.argv.includes("--load-child")) {
  process.on("message", async (m: { id: number; spec: LoadSpec }) => {
    try {
      process.send?.({ id: m.id, result: await runLoad(m.spec, `${process.pid}-${m.id}`) });
    } catch (error) {
      process.send?.({ id: m.id, error: String(error) });
    }
  });
  process.on("disconnect", () => process.exit(0));
} else {
  void main();
}
