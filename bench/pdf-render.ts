/**
 * PDF processing benchmark: what an uploader waits for — the WHOLE `pdf.process` job as the
 * queue runs it (file read from storage, page count, text and word boxes, every page's screen
 * image and thumbnail, storage writes, page rows, progress) — beside poppler's own speed, in the
 * same run. Prints figures only.
 *
 *   npx tsx bench/pdf-render.ts          (or: npm run bench:pdf)
 *
 * Cases, each timed BENCH_ROUNDS times, interleaved (a neighbour's load hits all alike):
 *   (a)  `pdftoppm -jpeg` at screen width, one process: the reference
 *   (a2) the same split over one process per core, for scale only
 *   (j)  the whole processing job (server/modules/pdf/process.job.ts) on a real app context:
 *        PGlite in DATA_DIR as `npm start` has it, local storage in a temp folder, the renderer the server would choose
 *   (z)  one page's zoom image made on demand (server/storage/on-demand.ts), for scale: it is
 *        not part of the job any more
 * The best round of each case is the figure (the least disturbed); the median follows it.
 * Floor: (j) ≤ 1.0 × (a). The host may be shared, and a busy neighbour slows the parallel job
 * far more than the one-process reference, so CPU seconds (this process's threads plus its
 * children's and theirs, the tool host's pdftoppm included, Linux only) are printed too, with the ratio they imply on idle cores:
 * (j)'s CPU time / cores against (a)'s.
 *
 * Environment (all optional):
 *   BENCH_PAGES=50     pages in the catalogue
 *   BENCH_ROUNDS=3     rounds of every case
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db";
import { pageImageKey } from "../server/modules/pdf/pdf.keys";
import { PdfService } from "../server/modules/pdf/pdf.service";
import { processJob } from "../server/modules/pdf/process.job";
import { chooseRenderer, PAGE_WIDTHS, planRanges } from "../server/modules/pdf/render";
import { onDemandOf } from "../server/storage/on-demand";
import { makeCataloguePdf } from "../tests/fixtures/make-pdf";

const PAGES = Number(process.env.BENCH_PAGES ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CORES = os.availableParallelism();
const FLOOR = 1.0;
const run = promisify(execFile);

const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-bench-pdf-"));
const pdf = path.join(dir, "catalogue.pdf");
const pages = Array.from({ length: PAGES }, (_, i) => i + 1);

/** One pdftoppm over `first..last` to JPEG files, flags as the native renderer's. */
const pdftoppmJpeg = (first: number, last: number, prefix: string) =>
  run("pdftoppm", [
    "-cropbox",
    "-jpeg",
    "-scale-to-x",
    String(PAGE_WIDTHS.screen),
    "-scale-to-y",
    "-1",
    "-f",
    String(first),
    "-l",
    String(last),
    pdf,
    path.join(dir, prefix),
  ]);

/**
 * CPU seconds used so far by this process (all threads), its children that have ended, and its
 * children still running with everything they have reaped (the tool host, whose tools are the
 * renderer's pdftoppm and pdftotext). Linux only; NaN elsewhere.
 */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  // Fields 14–17 of /proc/<pid>/stat (utime, stime, cutime, cstime, in ticks), after the name.
  const ticks = (pid: string | number) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return {
      ppid: Number(fields[1]),
      own: Number(fields[11]) + Number(fields[12]),
      reaped: Number(fields[13]) + Number(fields[14]),
    };
  };
  try {
    let total = ticks("self").reaped;
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = ticks(pid);
        if (stat.ppid === process.pid) total += stat.own + stat.reaped;
      } catch {} // ended while we looked
    }
    return (own.user + own.system) / 1e6 + total / 100;
  } catch {
    return Number.NaN;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main(): Promise<void> {
  const started = performance.now();
  const bytes = await makeCataloguePdf({ pages: PAGES });
  writeFileSync(pdf, bytes);
  const { stderr } = await run("pdftoppm", ["-v"]);
  const poppler = /version ([\d.]+)/.exec(stderr)?.[1] ?? "?";

  // A real app context: the job and the on-demand piece run exactly as in the server.
  const config = loadConfig({
    DATA_DIR: path.join(dir, "data"),
    // Set, so the first admin is created quietly (nobody signs in here).
    ADMIN_PASSWORD: randomUUID(),
    CLIENT_DIR: "/nonexistent",
    LOG_LEVEL: "silent",
  });
  // The database as `npm start` has it: embedded PGlite in DATA_DIR.
  mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({ databaseUrl: null, pgliteDir: config.dataDir });
  const { app, ctx } = await buildApp({ config, database, logger: false });
  const renderer = await chooseRenderer();
  const job = processJob(ctx, new PdfService(ctx), renderer);
  const sourceKey = "bench/catalogue.pdf";
  await ctx.storage.put(sourceKey, Readable.from([bytes]), "application/pdf");

  console.log(
    `PDF processing bench: ${PAGES} A4 pages, ${CORES} cores, poppler ${poppler}, renderer ${renderer.name}, ` +
      `${ROUNDS} rounds (load average at start ${os.loadavg()[0].toFixed(2)})`,
  );

  let round = 0;
  let lastPdfId = "";
  const CASES: { key: string; label: string; run(): Promise<void> }[] = [
    {
      key: "a",
      label: `pdftoppm -jpeg ${PAGE_WIDTHS.screen} px, 1 process`,
      run: async () => {
        await pdftoppmJpeg(1, PAGES, "a");
      },
    },
    {
      key: "a2",
      label: `pdftoppm -jpeg ${PAGE_WIDTHS.screen} px, ${CORES} processes`,
      run: async () => {
        await Promise.all(
          planRanges(pages, CORES).map(({ first, last }) => pdftoppmJpeg(first, last, `a2-${first}`)),
        );
      },
    },
    {
      key: "j",
      label: "whole job: text + screen + thumbnails",
      run: async () => {
        const row = await ctx.db
          .insertInto("pdfs")
          .values({ name: `Bench ${round}`, slug: `bench-${round}`, file_key: sourceKey, version: 1 })
          .returning("id")
          .executeTakeFirstOrThrow();
        await job({
          id: `bench-${round}`,
          name: "pdf.process",
          payload: { pdfId: row.id, version: 1 },
          attempt: 1,
          signal: new AbortController().signal,
          carryOn: async () => false,
          finishIn: async () => false,
          endQuery: () => {
            throw new Error("the PDF job does not end itself");
          },
        });
        const done = await ctx.db
          .selectFrom("pdfs")
          .select(["pdflist_status", "error_message"])
          .where("id", "=", row.id)
          .executeTakeFirstOrThrow();
        if (done.pdflist_status !== "ready")
          throw new Error(`job ended ${done.pdflist_status}: ${done.error_message}`);
        lastPdfId = row.id;
      },
    },
    {
      key: "z",
      label: `one zoom page (${PAGE_WIDTHS.zoom} px) on demand`,
      run: async () => {
        const key = pageImageKey(lastPdfId, 1, 1 + (round % PAGES), "zoom");
        await onDemandOf(ctx).ensure(key, { anonymous: false, address: "" });
      },
    },
  ];

  const times = new Map<string, number[]>(CASES.map((c) => [c.key, []]));
  const cpu = new Map<string, number[]>(CASES.map((c) => [c.key, []]));
  for (round = 0; round < ROUNDS; round++) {
    for (const c of CASES) {
      const t = performance.now();
      const c0 = cpuSeconds();
      await c.run();
      times.get(c.key)?.push((performance.now() - t) / 1000);
      cpu.get(c.key)?.push(cpuSeconds() - c0);
    }
  }
  await app.close();
  await database.close();

  const best = (key: string) => Math.min(...(times.get(key) ?? []));
  const leastCpu = (key: string) => Math.min(...(cpu.get(key) ?? []));
  for (const c of CASES) {
    const seconds = best(c.key);
    const perPage = c.key === "z" ? "" : `  ${(PAGES / seconds).toFixed(1).padStart(5)} pages/s`;
    console.log(
      `(${c.key})`.padEnd(5) +
        c.label.padEnd(42) +
        `${seconds.toFixed(2).padStart(6)} s${perPage}` +
        `  (median ${median(times.get(c.key) ?? []).toFixed(2)} s, CPU ${leastCpu(c.key).toFixed(2)} s)`,
    );
  }
  const ratio = best("j") / best("a");
  const medianRatio = median(times.get("j") ?? []) / median(times.get("a") ?? []);
  console.log(
    `whole job / single-thread pdftoppm, (j)/(a): ${ratio.toFixed(2)} best, ${medianRatio.toFixed(2)} median; ` +
      `floor ≤ ${FLOOR.toFixed(1)}: ${ratio <= FLOOR ? "met" : "NOT met"}`,
  );
  const cpuRatio = leastCpu("j") / CORES / leastCpu("a");
  console.log(
    `by CPU time: (j) ${leastCpu("j").toFixed(2)} s / ${CORES} cores vs (a) ${leastCpu("a").toFixed(2)} s → ` +
      `${cpuRatio.toFixed(2)} on idle cores; floor ≤ ${FLOOR.toFixed(1)}: ${cpuRatio <= FLOOR ? "met" : "NOT met"}`,
  );
  console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
