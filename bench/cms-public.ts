/**
 * CMS public delivery API benchmark (issue 14): `GET /public-cms/{domain}/{type}?pageSize=25`,
 * 25 published entries each with a component and a media item populated (populate 1, the
 * default), through the real app (domain lookup, type registry, list contract, populate, ETag,
 * CORS and security headers, compression hooks as shipped) against a floor, on PGlite and on
 * PostgreSQL, in the same run:
 * - CMS miss: `If-None-Match` that does not match, so the full answer (200);
 * - CMS 304: `If-None-Match` with the current ETag (304, no body);
 * - floor: the same 25 entries with the component and the media item's fields, as JSON (200).
 * Prints requests/s, p99, the ratio CMS miss ÷ floor against the 0.8× target, and the 304
 * path's requests/s beside the floor's full answer (target: faster). Figures only; nothing is
 * asserted.
 *
 *   npx tsx bench/cms-public.ts          (or: npm run bench:cms)
 *
 * The content is made through the app's admin API, as an editor would: a domain, a component
 * type, a collection type with a component field and a media field, 25 images uploaded to the
 * media library (the DAM, local storage under a temp DATA_DIR) and 25 entries created and
 * published. The floor (bench/cms-public-floor.ts) is a bare Fastify 5 server in a process of
 * its own that sends ONE SQL statement (entries, domain, type and asset joined, the total as a
 * scalar subquery), no auth, no validation, no ETag; the probe checks that both answer the same
 * JSON, byte for byte. On PostgreSQL it has its own `pg` Pool (max 10) on the same database;
 * on PGlite its own PGlite with the same rows copied in (one PGlite cannot be shared across
 * processes, and the app's own would put the floor on the app's thread; see
 * bench/resource-engine.ts). Both log no requests, and autocannon sends no Accept-Encoding.
 *
 * Environment (all optional; the engine bench's, bench/resource-engine-settings.ts):
 *   BENCH_DRIVERS=pglite,postgres   drivers to run (default both; postgres needs PG binaries)
 *   BENCH_DURATION=8                seconds measured per side (after a warm-up)
 *   BENCH_ROUNDS=4                  ...in this many slices alternating CMS miss, CMS 304, floor
 *   BENCH_WARMUP=2                  seconds of warm-up per side
 *   BENCH_CONNECTIONS=10            autocannon connections
 *   BENCH_PGLITE_DIR=memory         PGlite in memory instead of temp data dirs (the default)
 *   PG_BIN=/usr/lib/postgresql/15/bin
 * Both drivers, defaults: about 2 minutes on 2 cores.
 *
 * Load comes from autocannon in a child process (bench/resource-engine-load.ts); PostgreSQL is
 * a throwaway cluster (scripts/pg-cluster.ts) stopped and deleted at the end.
 *
 * Profiling: `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/cms-public.ts`
 * writes a .cpuprofile for this process (the app) and the floor's; each driver prints when
 * each side was measured, and `node bench/cpuprofile-summary.mjs <file> --window <those spans>`
 * sums the self time of those spans by function and by file.
 */
import os from "node:os";
import { type Cleanup, reportFailure, runCleanups } from "./bench-run";
import { cmsPath, ENTRIES, floorPath } from "./cms-public-floor";
import { type CmsSides, startCmsSides } from "./cms-public-setup";
import { measureSides } from "./resource-engine-cases";
import { LoadRunner, type LoadSpec } from "./resource-engine-load";
import { fmt, lpad, type Measured, meets, pad, problems } from "./resource-engine-report";
import {
  CONNECTIONS,
  DRIVERS,
  type Driver,
  DURATION,
  ROUNDS,
  TARGET,
  WARMUP,
} from "./resource-engine-settings";

/** A stale ETag: the app answers in full. */
const MISS = '"bench-stale-etag"';

interface Figures {
  miss: Measured;
  notModified: Measured;
  floor: Measured;
}

async function measure(driver: Driver, sides: CmsSides, load: LoadRunner, t0: number): Promise<Figures> {
  const cms = (ifNoneMatch: string): LoadSpec => ({
    url: sides.cmsUrl,
    kind: "fixed",
    path: cmsPath,
    headers: { "if-none-match": ifNoneMatch },
    connections: CONNECTIONS,
  });
  const [miss, notModified, floor] = await measureSides(
    load,
    [
      { spec: cms(MISS), process: "engine" },
      { spec: cms(sides.etag), process: "engine" },
      {
        spec: { url: sides.floorUrl, kind: "fixed", path: floorPath, connections: CONNECTIONS },
        process: "floor",
      },
    ],
    { floorPid: sides.floor.pid, floorForkedAt: sides.floorForkedAt, postmasterPid: sides.postmasterPid },
  );
  process.stderr.write(
    `  ${driver}: done (${((Date.now() - t0) / 1000).toFixed(0)} s); measured at s ${miss.window} (miss) and ` +
      `${notModified.window} (304) of the app's process, ${floor.window} of the floor's\n`,
  );
  return { miss: miss.measured, notModified: notModified.measured, floor: floor.measured };
}

function print(driver: Driver, sides: CmsSides, f: Figures): string[] {
  const header = `${pad("side", 40)}${lpad("req/s", 9)}${lpad("p50 ms", 8)}${lpad("p99 ms", 8)}${lpad("bytes", 8)}${lpad("CPU µs/req node + pg", 22)}`;
  console.log(
    `\n${driver}: ${CONNECTIONS} connections; per side ${WARMUP} s warm-up, then ${DURATION} s measured in ${ROUNDS} slices alternating CMS miss / CMS 304 / floor`,
  );
  console.log(header);
  console.log("-".repeat(header.length));
  const line = (label: string, m: Measured, bytes: number, expected: string) =>
    console.log(
      `${pad(label, 40)}${lpad(fmt(m.rps), 9)}${lpad(fmt(m.p50), 8)}${lpad(fmt(m.p99), 8)}${lpad(String(bytes), 8)}${lpad(`${fmt(m.nodeCpu)} +${lpad(fmt(m.pgCpu), 6)}`, 22)}${problems(m, expected)}`,
    );
  line(`CMS, If-None-Match miss (200, full)`, f.miss, sides.bytes.cms, "2");
  line(`CMS, If-None-Match match (304)`, f.notModified, 0, "304");
  line(`floor, full answer (200)`, f.floor, sides.bytes.floor, "2");
  const ratio = f.miss.rps / f.floor.rps;
  const ratio304 = f.notModified.rps / f.floor.rps;
  const faster = f.notModified.rps > f.floor.rps ? "yes" : "NO";
  const lines = [
    `miss ÷ floor ${fmt(ratio, 2)}× (target ≥ ${TARGET}×: ${meets(ratio)}); p99 ${fmt(f.miss.p99)} vs ${fmt(f.floor.p99)} ms`,
    `304 ${fmt(f.notModified.rps)} req/s vs floor full ${fmt(f.floor.rps)} req/s = ${fmt(ratio304, 2)}× (target faster: ${faster}); p99 ${fmt(f.notModified.p99)} vs ${fmt(f.floor.p99)} ms`,
  ];
  for (const l of lines) console.log(l);
  console.log(
    `floor: bare Fastify, one SQL statement, no auth, no validation, no ETag. CMS: + domain lookup, type registry, list\n` +
      "contract, populate (one asset query), ETag (JSON + SHA-1), CORS and security headers, compression hooks.",
  );
  return lines.map((l) => `${driver.padEnd(9)} ${l}`);
}

async function runDriver(driver: Driver, load: LoadRunner, summary: string[]) {
  const cleanups: Cleanup[] = [];
  const t0 = Date.now();
  try {
    const sides = await startCmsSides(driver, cleanups);
    if (!sides) return;
    summary.push(...print(driver, sides, await measure(driver, sides, load, t0)));
  } catch (error) {
    reportFailure(driver, error);
  } finally {
    await runCleanups(cleanups);
  }
}

async function main() {
  console.log(
    `CMS public API benchmark (${ENTRIES} entries, component + media populated) — node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ""}`,
  );
  const load = new LoadRunner();
  const summary: string[] = [];
  const started = Date.now();
  try {
    for (const driver of DRIVERS) await runDriver(driver, load, summary);
  } finally {
    load.stop();
  }
  console.log(
    `\nsummary (CMS miss ÷ floor, target ≥ ${TARGET}×; CMS 304 vs floor full answer, target faster):`,
  );
  for (const line of summary) console.log(`  ${line}`);
  console.log(`\ntotal time ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await main();
