/**
 * Store sync throughput (issue 18): products per second a sync brings from a loopback BigCommerce
 * store (tests/server/fake-bigcommerce.ts, its rate limit on) into the catalogue, through the
 * real app (`POST /api/store/sync`, the job, the SKU matching, variants, links and report), beside
 * a floor on the same store and database: the same pages read through the same connector (so the
 * same rate-limit waits), each written with ONE multi-row insert into a bare table — no matching,
 * no links, no report. Figures only; nothing is asserted.
 *
 *   npx tsx bench/store-sync.ts          (or: npm run bench:store)
 *
 * Environment (all optional):
 *   BENCH_STORE_PRODUCTS=5000   store products (every fifth with two variants of their own SKU)
 *   BENCH_STORE_QUOTA=8         requests per window the store allows
 *   BENCH_STORE_WINDOW_MS=1000  its window (BigCommerce's: 150 or 450 per 30 s; shorter here to finish)
 *   BENCH_DRIVER=pglite         or postgres (needs PostgreSQL binaries; PG_BIN)
 */
import { sql } from "kysely";
import { bigCommerce } from "../server/modules/store/bigcommerce";
import type { AnyDb } from "../server/resources/rules";
import { sampleProducts, startFakeBigCommerce } from "../tests/server/fake-bigcommerce";
import { type Cleanup, reportFailure, runCleanups } from "./bench-run";
import { signIn, startApp } from "./resource-engine-setup";

const env = process.env;
const PRODUCTS = Number(env.BENCH_STORE_PRODUCTS || 5000);
const QUOTA = Number(env.BENCH_STORE_QUOTA || 8);
const WINDOW_MS = Number(env.BENCH_STORE_WINDOW_MS || 1000);
const DRIVER = env.BENCH_DRIVER === "postgres" ? "postgres" : "pglite";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function api(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

/** Runs a sync through the API; answers its seconds, its counts and the 429s the store sent. */
async function appSync(url: string, token: string, store: Awaited<ReturnType<typeof startFakeBigCommerce>>) {
  const before = store.log.filter((l) => l.status === 429).length;
  const started = Date.now();
  const sync = await api(url, token, "POST", "/api/store/sync", {});
  for (;;) {
    const now = await api(url, token, "GET", `/api/store/sync/${sync.id}`);
    if (now.status === "finished" || now.status === "failed") {
      const seconds = (Date.now() - started) / 1000;
      const limited = store.log.filter((l) => l.status === 429).length - before;
      return { seconds, counts: now.counts as Record<string, number>, status: now.status, limited };
    }
    await sleep(50);
  }
}

async function main() {
  const cleanups: Cleanup[] = [];
  try {
    const store = await startFakeBigCommerce({ quota: QUOTA, windowMs: WINDOW_MS });
    cleanups.push(() => store.close());
    store.products = sampleProducts(PRODUCTS);
    const items = PRODUCTS + store.products.reduce((n, p) => n + (p.variants?.length ?? 0), 0);
    const app = await startApp(DRIVER, cleanups, { BIGCOMMERCE_API_URL: store.url });
    if (!app) return;
    const token = await signIn(app.url);
    await api(app.url, token, "POST", "/api/store/connections", {
      name: "Bench",
      storeHash: store.hash,
      token: store.token,
    });
    console.log(`store sync bench: ${app.where}`);
    console.log(
      `store: ${PRODUCTS} products + ${items - PRODUCTS} variants, rate limit ${QUOTA} requests / ${WINDOW_MS} ms`,
    );

    const first = await appSync(app.url, token, store);
    const again = await appSync(app.url, token, store);

    // The floor: the same pages through the same connector, one multi-row insert each.
    const db = app.database.db as unknown as AnyDb;
    await sql`create table bench_store_floor (sku text, name text, price numeric(14, 2), stock integer)`.execute(
      db,
    );
    const client = bigCommerce({
      storeHash: store.hash,
      token: store.token,
      apiUrl: store.url,
      allowPrivate: true,
    });
    const floorLimited = store.log.filter((l) => l.status === 429).length;
    const floorStart = Date.now();
    for await (const _ of client.categories()) {
      // read as the sync reads them
    }
    for await (const page of client.products()) {
      const rows = page.data.flatMap((p) => [
        { sku: p.sku, name: p.name, price: p.price, stock: p.inventory_level },
        ...(p.variants ?? []).map((v) => ({
          sku: v.sku,
          name: p.name,
          price: v.price ?? v.calculated_price,
          stock: v.inventory_level,
        })),
      ]);
      if (rows.length) await db.insertInto("bench_store_floor").values(rows).execute();
    }
    const floorSeconds = (Date.now() - floorStart) / 1000;
    const floor429 = store.log.filter((l) => l.status === 429).length - floorLimited;

    const rate = (n: number, s: number) => (n / s).toFixed(0).padStart(7);
    console.log("");
    console.log("case                              items   seconds  items/s   429s  counts");
    const line = (label: string, s: number, limited: number, counts: string) =>
      console.log(
        `${label.padEnd(32)} ${String(items).padStart(6)} ${s.toFixed(2).padStart(9)} ${rate(items, s)} ${String(limited).padStart(6)}  ${counts}`,
      );
    line("app: first sync (all created)", first.seconds, first.limited, JSON.stringify(first.counts));
    line("app: again (all unchanged)", again.seconds, again.limited, JSON.stringify(again.counts));
    line("floor: read + bulk insert", floorSeconds, floor429, "");
    console.log("");
    console.log(
      `first sync ÷ floor: ${(floorSeconds / first.seconds).toFixed(2)}× the floor's throughput; ` +
        `products/s ${(PRODUCTS / first.seconds).toFixed(0)} (app) vs ${(PRODUCTS / floorSeconds).toFixed(0)} (floor)`,
    );
  } catch (error) {
    reportFailure(DRIVER, error);
    process.exitCode = 1;
  } finally {
    await runCleanups(cleanups);
  }
}

await main();
