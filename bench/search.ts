/**
 * Search everywhere benchmark (issue 31): the real app on each driver, 100,000 records seeded by
 * SQL in each of three resources (products, CRM clients, categories), and the latency of
 * `GET /api/search` (every source an administrator may see: all resources and module tables, one
 * statement) for a mix of search texts, beside a floor: one bare SQL statement on one table
 * (`select … from products where name ilike $1 limit 5`) through the same driver, in the same
 * run. Requests are sent one at a time (a person typing), so the figures are latencies, not
 * throughput. Target: an answer within 100 ms at 100,000 records per resource. Prints figures;
 * nothing is asserted.
 *
 *   npm run bench:search
 *
 * Environment (all optional):
 *   BENCH_ROWS=100000             records per seeded resource
 *   BENCH_ROUNDS=20               requests per search text (after 3 of warm-up)
 *   BENCH_DRIVERS=pglite,postgres drivers (postgres needs PG binaries, else skipped)
 *   BENCH_PGLITE_DIR=memory       PGlite in memory rather than in a data folder
 */
import { performance } from "node:perf_hooks";
import { CompiledQuery, type Kysely, sql } from "kysely";
import pg from "pg";
import { type Cleanup, reportFailure, runCleanups } from "./bench-run";
import type { Driver } from "./resource-engine-settings";
import { signIn, startApp } from "./resource-engine-setup";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const WARMUP = 3;
const DRIVERS = (process.env.BENCH_DRIVERS ?? "pglite,postgres").split(",").map((d) => d.trim()) as Driver[];
const TARGET_MS = 100;

/** Names are an adjective, a noun and a number: "Amber lamp 4242" (1 in 40 rows shares an adjective). */
const ADJECTIVES =
  "amber azure brass cedar cobalt copper coral crimson dusky ebony fawn flint frost garnet hazel indigo ivory jade khaki lilac linen maple mauve moss ochre olive onyx opal pearl plum quartz russet sable saffron sage slate tawny teal umber walnut".split(
    " ",
  );
const NOUNS =
  "lamp chair table shade stool bench desk shelf rug vase mirror clock sofa cabinet dresser lantern basket tray bowl jug".split(
    " ",
  );

/** Row i's product name, as the seed writes it ("Brass chair 4242"). */
function nameOf(i: number): string {
  const adjective = ADJECTIVES[i % ADJECTIVES.length];
  const noun = NOUNS[Math.floor(i / ADJECTIVES.length) % NOUNS.length];
  return `${adjective.charAt(0).toUpperCase()}${adjective.slice(1)} ${noun} ${i}`;
}

/** The texts searched, and what each stands for. */
const SEARCHES: Array<{ q: string; what: string }> = [
  { q: nameOf(4242).toLowerCase().slice(0, -1), what: "a name, nearly whole (few matches)" },
  { q: nameOf(77777), what: "an exact name" },
  { q: "4242", what: "digits (a few dozen matches a table)" },
  { q: "saffron", what: "a common word (2.5% of every table)" },
  { q: "example.com", what: "in every client's email (100% of a table)" },
  { q: "zqxvk", what: "no match" },
  { q: "la", what: "two letters (too short for trigrams)" },
];

const arrayLiteral = (words: readonly string[]) => `array[${words.map((w) => `'${w}'`).join(", ")}]`;

/**
 * ROWS products, clients and categories, in three statements; then the planner's statistics.
 * On PostgreSQL through a connection of its own: the app's pool bounds a statement to 30 s.
 */
async function seed(db: Kysely<unknown>, databaseUrl: string | null) {
  const adjectives = arrayLiteral(ADJECTIVES);
  const nouns = arrayLiteral(NOUNS);
  const name = (i: string) =>
    `initcap((${adjectives})[1 + ${i} % ${ADJECTIVES.length}]) || ' ' || (${nouns})[1 + (${i} / ${ADJECTIVES.length}) % ${NOUNS.length}] || ' ' || ${i}`;
  const text = `
      insert into categories (name, description)
      select 'Category ' || ${name("i")}, 'Things of kind ' || i from generate_series(1, ${ROWS}) as i;
      insert into products (sku_code, name, description, price, category_id, status)
      select 'SKU-' || lpad(i::text, 7, '0'), ${name("i")}, 'A ' || ${name("i")} || ', handmade.',
             (i % 10000) / 100.0, (select id from categories order by name limit 1), 'active'
      from generate_series(1, ${ROWS}) as i;
      insert into clients (name, company, email, phone, tags)
      select initcap((${adjectives})[1 + (i / 7) % ${ADJECTIVES.length}]) || ' Client ' || i,
             ${name("i")} || ' Ltd', 'client' || i || '@example.com', '+9198' || lpad(i::text, 8, '0'), '[]'::jsonb
      from generate_series(1, ${ROWS}) as i;
      analyze categories; analyze products; analyze clients;
    `;
  if (!databaseUrl) {
    await sql.raw(text).execute(db);
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

interface Timing {
  p50: number;
  p99: number;
  max: number;
}

/** Runs `once` WARMUP times, then ROUNDS times timed; its latencies in ms. */
async function timeIt(once: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < WARMUP; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1] };
}

const ms = (n: number) => `${n.toFixed(1).padStart(7)} ms`;

async function runDriver(driver: Driver): Promise<void> {
  const cleanups: Cleanup[] = [];
  try {
    const app = await startApp(driver, cleanups);
    if (!app) return;
    console.log(`\n${driver}: ${app.where}`);
    let started = performance.now();
    await seed(app.database.db as unknown as Kysely<unknown>, app.databaseUrl);
    console.log(
      `  seeded ${ROWS.toLocaleString("en-US")} products, clients and categories in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const token = await signIn(app.url);
    const headers = { authorization: `Bearer ${token}`, "user-agent": "atelier-bench" };
    const db = app.database.db;
    console.log(
      `  ${"search text".padEnd(20)} ${"hits".padStart(4)}   route p50 / p99 (all sources)    floor p50 / p99 (products.name)`,
    );
    const all: Timing[] = [];
    started = performance.now();
    for (const { q, what } of SEARCHES) {
      let hits = 0;
      const route = await timeIt(async () => {
        const res = await fetch(`${app.url}/api/search?q=${encodeURIComponent(q)}`, { headers });
        if (res.status !== 200) throw new Error(`search ${q}: ${res.status} ${await res.text()}`);
        const body = (await res.json()) as { groups: Array<{ hits: unknown[] }> };
        hits = body.groups.reduce((n, g) => n + g.hits.length, 0);
      });
      const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const floor = await timeIt(() =>
        db.executeQuery(
          CompiledQuery.raw("select id, name from products where name ilike $1 order by name limit 5", [
            pattern,
          ]),
        ),
      );
      all.push(route);
      console.log(
        `  ${JSON.stringify(q).padEnd(20)} ${String(hits).padStart(4)}   ${ms(route.p50)} / ${ms(route.p99)}       ${ms(floor.p50)} / ${ms(floor.p99)}    ${what}`,
      );
    }
    const worst = Math.max(...all.map((t) => t.p99));
    console.log(
      `  worst route p99: ${worst.toFixed(1)} ms (target ${TARGET_MS} ms: ${worst <= TARGET_MS ? "met" : "MISSED"}); ` +
        `${SEARCHES.length * (ROUNDS + WARMUP) * 2} requests in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } catch (error) {
    reportFailure(driver, error);
  } finally {
    await runCleanups(cleanups);
  }
}

console.log(
  `Search everywhere: ${ROWS.toLocaleString("en-US")} records per seeded resource, ${ROUNDS} timed requests per text, one at a time`,
);
for (const driver of DRIVERS) await runDriver(driver);
