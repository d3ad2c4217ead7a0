/**
 * DAM benchmark: uploads and image renditions through the real app (auth guard, multipart
 * stream, content sniffing, local storage under a temp DATA_DIR, one row per asset), on
 * PGlite and on PostgreSQL. Prints figures only.
 *
 *   npx tsx bench/dam-upload.ts          (or: npm run bench:dam)
 *
 * 1. Uploads: BENCH_FILES files of BENCH_FILE_MB MiB each to `POST /dam/assets`, one file a
 *    request, BENCH_UPLOAD_CONCURRENCY at a time, then the same one at a time: MiB, seconds,
 *    MiB/s, and p50/p99 per request. The files are PDFs ("%PDF-1.4" then random bytes): an
 *    allowed type that sharp does not read, so the figure is the upload path's own.
 * 2. Renditions of a 2000×1500 JPEG (made with sharp): the first request of a width and format
 *    (sharp renders it and stores it; median of a few copies of the image), then autocannon on
 *    renditions already made and on the original: requests/s and p50/p99.
 *
 * Environment (all optional):
 *   BENCH_DRIVERS=pglite,postgres   drivers to run (default both; postgres needs PG binaries)
 *   BENCH_FILES=50                  files uploaded per run
 *   BENCH_FILE_MB=5                 size of each, MiB
 *   BENCH_UPLOAD_CONCURRENCY=4      requests in flight in the concurrent run
 *   BENCH_SEQUENTIAL=1              also upload one at a time (0: skip)
 *   BENCH_DURATION=8                seconds of autocannon per cached case (after a 2 s warm-up)
 *   BENCH_CONNECTIONS=10            autocannon connections
 *   PG_BIN=/usr/lib/postgresql/15/bin
 *
 * The client (fetch and autocannon) runs in a child process (this file, forked with
 * `--client`), so it does not share the server's event loop; it prints its own figures.
 * PostgreSQL is a throwaway cluster (scripts/pg-cluster.ts, stock settings) stopped and
 * deleted at the end, like the temp DATA_DIR.
 */
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import type { DamAsset, DamUploadResponse } from "../schemas/dam";
import { findPgBin, startPgCluster } from "../scripts/pg-cluster";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db";
import { type Cleanup, reportFailure, runCleanups } from "./bench-run";

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

const env = process.env;
const DRIVERS = (env.BENCH_DRIVERS || "pglite,postgres").split(",").map((d) => d.trim()) as Array<
  "pglite" | "postgres"
>;
const FILES = Number(env.BENCH_FILES || 50);
const FILE_BYTES = Number(env.BENCH_FILE_MB || 5) * 1024 * 1024;
const CONCURRENCY = Number(env.BENCH_UPLOAD_CONCURRENCY || 4);
const SEQUENTIAL = env.BENCH_SEQUENTIAL !== "0";
const DURATION = Number(env.BENCH_DURATION || 8);
const WARMUP = 2;
const CONNECTIONS = Number(env.BENCH_CONNECTIONS || 10);
const ADMIN = { email: "bench-admin@example.com", password: "Bench-Passw0rd!" };
const IMAGE = { width: 2000, height: 1500 };
/** Copies of the image whose first renditions are timed (the median is printed). */
const COPIES = 3;
const FIRST_RENDITIONS = [
  "w=320&format=webp",
  "w=640&format=webp",
  "w=1024&format=webp",
  "w=1600&format=webp",
  "w=320&format=avif",
  "w=1024&format=avif",
  "w=320&format=jpeg",
  "w=1024&format=jpeg",
];
const CACHED = ["?w=320&format=webp", "?w=1024&format=webp", ""];
const MiB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const lpad = (s: string, n: number) => s.padStart(n);

// ---------------------------------------------------------------------------------------------
// Client (the forked child): signs in, uploads, asks for renditions
// ---------------------------------------------------------------------------------------------

interface AutocannonResult {
  duration: number;
  requests: { total: number };
  throughput: { total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

type AutocannonRun = Promise<AutocannonResult> & {
  on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
};
type Autocannon = (opts: { url: string; connections: number; duration: number }) => AutocannonRun;

async function signIn(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/signin`, {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": "atelier-bench" },
    body: JSON.stringify({ ...ADMIN, deviceInfo: { deviceId: "bench", deviceName: "Benchmark" } }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** Uploads one file as one request; throws unless the answer is 201 with that one asset. */
async function uploadOne(baseUrl: string, token: string, name: string, data: Buffer): Promise<DamAsset> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(data)]), name);
  const res = await fetch(`${baseUrl}/dam/assets`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload of ${name}: ${res.status} ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as DamUploadResponse;
  if (body.data.length !== 1 || body.errors.length)
    throw new Error(`upload of ${name}: ${text.slice(0, 300)}`);
  return body.data[0];
}

/** A PDF as far as the sniffer is concerned: the header, random bytes, the trailer. */
function pdfBody(bytes: number): Buffer {
  const body = randomBytes(bytes);
  body.write("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", 0, "latin1");
  body.write("\n%%EOF\n", bytes - 7, "latin1");
  return body;
}

async function uploadRun(baseUrl: string, token: string, label: string, concurrency: number) {
  const data = pdfBody(FILE_BYTES);
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < FILES; i = next++) {
      const t = performance.now();
      const asset = await uploadOne(baseUrl, token, `${label}-${String(i).padStart(3, "0")}.pdf`, data);
      latencies.push(performance.now() - t);
      if (asset.size !== FILE_BYTES || asset.mime !== "application/pdf") {
        throw new Error(`stored ${asset.size} bytes of ${asset.mime}, sent ${FILE_BYTES} of a PDF`);
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, FILES) }, worker));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const total = (FILES * FILE_BYTES) / MiB;
  console.log(
    `upload, ${lpad(String(concurrency), 2)} in flight: ${FILES} × ${FILE_BYTES / MiB} MiB = ${total} MiB in ${seconds.toFixed(2)} s` +
      ` → ${(total / seconds).toFixed(1)} MiB/s, ${(FILES / seconds).toFixed(1)} files/s;` +
      ` per request p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}`,
  );
}

/** A photo-like 2000×1500 JPEG: smooth colour waves with some grain. */
async function testImage(): Promise<Buffer> {
  const { width, height } = IMAGE;
  const raw = Buffer.alloc(width * height * 3);
  const grain = randomBytes(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const n = (grain[i] & 31) - 16;
      raw[i * 3] = 128 + 100 * Math.sin(x / 97) + n;
      raw[i * 3 + 1] = 128 + 100 * Math.sin(y / 61 + x / 233) + n;
      raw[i * 3 + 2] = 128 + 100 * Math.cos((x + y) / 151) + n;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** One GET, read to the end; its time in ms. */
async function timedGet(url: string): Promise<{ ms: number; bytes: number; type: string }> {
  const t = performance.now();
  const res = await fetch(url);
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return { ms: performance.now() - t, bytes: body.byteLength, type: res.headers.get("content-type") ?? "" };
}

async function hammer(url: string, seconds: number) {
  const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const run = autocannon({ url, connections: CONNECTIONS, duration: seconds });
  run.on("response", (_client, status, _bytes, took) => {
    latencies.push(took);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  });
  const r = await run;
  latencies.sort((a, b) => a - b);
  const bad = [...statuses].filter(([s]) => s !== 200);
  return {
    rps: r.requests.total / r.duration,
    mibps: r.throughput.total / MiB / r.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    problems:
      bad.length || r.errors || r.timeouts
        ? ` [!${bad.map(([s, n]) => `${s}×${n}`).join(" ")} ${r.errors} errors, ${r.timeouts} timeouts]`
        : "",
  };
}

/**
 * The same load from `CONNECTIONS` fetch loops: autocannon parses bodies in JavaScript and tops
 * out near 60 MiB/s here (80 req/s for a 790 KiB file from a bare node:http server, where fetch
 * reads 630), so for large bodies this is the figure that measures the server.
 */
async function fetchHammer(url: string, seconds: number) {
  const latencies: number[] = [];
  let bytes = 0;
  let bad = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const res = await fetch(url);
        // Read first, then add: `bytes += await …` would read `bytes` before the await and lose updates.
        const size = (await res.arrayBuffer()).byteLength;
        bytes += size;
        latencies.push(performance.now() - t);
        if (res.status !== 200) bad++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / seconds,
    mibps: bytes / MiB / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    problems: bad ? ` [!${bad} not 200]` : "",
  };
}

async function renditionRun(baseUrl: string, token: string) {
  const image = await testImage();
  const assets: DamAsset[] = [];
  for (let i = 0; i <= COPIES; i++) assets.push(await uploadOne(baseUrl, token, `photo-${i}.jpg`, image));
  const [warm, ...timed] = assets;
  console.log(
    `\nimage: ${IMAGE.width}×${IMAGE.height} JPEG, ${(image.length / 1024).toFixed(0)} KiB, stored as ${warm.width}×${warm.height}`,
  );
  // The first sharp call of a process pays for loading libvips' codecs; not a rendition's cost.
  await timedGet(`${baseUrl}${warm.url}?w=64&format=webp`);

  console.log(`first request of a rendition (sharp renders and stores it), median of ${COPIES} images:`);
  for (const query of FIRST_RENDITIONS) {
    const runs = [];
    for (const asset of timed) runs.push(await timedGet(`${baseUrl}${asset.url}?${query}`));
    const times = runs.map((r) => r.ms).sort((a, b) => a - b);
    console.log(
      `  ?${query.padEnd(20)} ${lpad(ms(percentile(times, 50)), 9)}  (${times.map((t) => t.toFixed(0)).join(", ")} ms)` +
        `  ${(runs[0].bytes / 1024).toFixed(1)} KiB ${runs[0].type}`,
    );
  }

  const key = timed[0].url;
  console.log(
    `\nrenditions already made, and the original: ${CONNECTIONS} connections of autocannon, then of fetch; ${WARMUP} s warm-up then ${DURATION} s each`,
  );
  console.log(
    `  ${"GET".padEnd(44)}${"client".padEnd(11)}${lpad("req/s", 9)}${lpad("p50", 10)}${lpad("p99", 10)}${lpad("MiB/s", 8)}`,
  );
  for (const query of CACHED) {
    const url = `${baseUrl}${key}${query}`;
    const label = `/assets/<key>${query || " (the original JPEG)"}`;
    for (const [name, run] of [
      ["autocannon", hammer],
      ["fetch", fetchHammer],
    ] as const) {
      await run(url, WARMUP);
      const r = await run(url, DURATION);
      console.log(
        `  ${label.padEnd(44)}${name.padEnd(11)}${lpad(r.rps.toFixed(0), 9)}${lpad(ms(r.p50), 10)}${lpad(ms(r.p99), 10)}${lpad(r.mibps.toFixed(1), 8)}${r.problems}`,
      );
    }
  }
}

async function client(baseUrl: string) {
  const token = await signIn(baseUrl);
  await uploadRun(baseUrl, token, "concurrent", CONCURRENCY);
  if (SEQUENTIAL) await uploadRun(baseUrl, token, "sequential", 1);
  await renditionRun(baseUrl, token);
}

// ---------------------------------------------------------------------------------------------
// Server (this process): the real app on a temp DATA_DIR, PGlite there or a throwaway cluster
// ---------------------------------------------------------------------------------------------

function runClient(baseUrl: string): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ["--client", baseUrl], {
    execArgv: process.execArgv,
    stdio: "inherit",
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`client exited with ${signal ?? code}`)),
    );
  });
}

async function runDriver(driver: "pglite" | "postgres") {
  const cleanups: Cleanup[] = [];
  try {
    let databaseUrl: string | null = null;
    let where = "PGlite in DATA_DIR";
    if (driver === "postgres") {
      const bin = findPgBin();
      if (!bin) {
        console.log("\npostgres: skipped (no PostgreSQL binaries; set PG_BIN)");
        return;
      }
      const cluster = await startPgCluster(bin, { tempPrefix: "atelier-bench-pg-" });
      cleanups.push(() => cluster.stop());
      databaseUrl = cluster.url;
      where = `${cluster.version}, throwaway cluster at ${cluster.url}`;
    }
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-bench-dam-"));
    cleanups.unshift(() => rmSync(dataDir, { recursive: true, force: true }));
    const config = loadConfig({
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ACCESS_TOKEN_TTL: "3600",
      LOG_LEVEL: "silent",
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: dataDir,
      CLIENT_DIR: "/nonexistent-client-dir",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const database = await openDatabase({ databaseUrl, pgliteDir: config.dataDir });
    cleanups.unshift(() => database.close());
    const built = await buildApp({ config, database, logger: false });
    cleanups.unshift(() => built.app.close());
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    const baseUrl = `http://127.0.0.1:${(built.app.server.address() as net.AddressInfo).port}`;

    console.log(`\n=== ${driver}: ${where}; local storage in ${dataDir}`);
    await runClient(baseUrl);
  } catch (error) {
    reportFailure(driver, error);
  } finally {
    await runCleanups(cleanups);
  }
}

async function main() {
  console.log(
    `DAM benchmark — node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ""}, sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips})`,
  );
  const started = Date.now();
  for (const driver of DRIVERS) await runDriver(driver);
  console.log(`\ntotal time ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (process.argv[2] === "--client") {
  try {
    await client(process.argv[3]);
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  }
} else await main();
