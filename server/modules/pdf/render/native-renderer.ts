/**
 * The poppler renderer: `pdfinfo` for sizes, `pdftoppm` for pixels, `pdftotext -bbox-layout`
 * for words. The pages are split into one contiguous range per core, one pdftoppm each,
 * writing into a temp folder at the largest width: JPEG when that is the largest spec's
 * format (kept as pdftoppm wrote it), else PPM (no compression to undo) for sharp to encode.
 * `-progress` announces each finished file, whose smaller sizes sharp makes while pdftoppm
 * goes on with the next page.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createLimiter, eachLimit } from "../../../parallel";
import { derivePage, encodePage, normaliseSpecs, parsePpm } from "./encode-page";
import { normalisePages, planRanges } from "./pages";
import { PdfError } from "./pdf-error";
import { parseBboxLayout, parsePdfInfo } from "./poppler-output";
import { runTool } from "./run-tool";
import type { PageImageSpec, PageImages, PageText, PdfInfo, PdfRenderer } from "./types";
import { JPEG_QUALITY } from "./widths";

export interface NativeRendererOptions {
  /** Folder of the poppler tools; default: found on PATH. */
  binDir?: string;
  /** Parallel pdftoppm processes; default `os.availableParallelism()`. */
  slots?: number;
  /** Kill a tool silent for this long (one page at zoom width takes well under a second). */
  idleMs?: number;
}

const TOOLS = ["pdfinfo", "pdftoppm", "pdftotext"] as const;

/** Whether the poppler tools run here (`pdftoppm -v` exits 0 and names itself). */
export function popplerAvailable(binDir?: string): Promise<boolean> {
  const checks = TOOLS.map(
    (tool) =>
      new Promise<boolean>((resolve) => {
        execFile(
          binDir ? path.join(binDir, tool) : tool,
          ["-v"],
          { timeout: 5000 },
          (error, stdout, stderr) => resolve(!error && `${stdout}${stderr}`.includes(tool)),
        );
      }),
  );
  return Promise.all(checks).then((ok) => ok.every(Boolean));
}

export function createNativeRenderer(options: NativeRendererOptions = {}): PdfRenderer {
  const bin = (tool: (typeof TOOLS)[number]) => (options.binDir ? path.join(options.binDir, tool) : tool);
  const slots = options.slots ?? os.availableParallelism();
  const idleMs = options.idleMs ?? 60_000;

  async function info(file: string, signal?: AbortSignal): Promise<PdfInfo> {
    const args = ["-f", "1", "-l", "2147483647", file];
    const { stdout } = await runTool(bin("pdfinfo"), args, { idleMs, signal, stdout: true });
    return parsePdfInfo(stdout);
  }

  async function renderPages(
    file: string,
    pages: number[],
    specs: readonly PageImageSpec[],
    onPage: (page: number, images: PageImages) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void> {
    const largestFirst = normaliseSpecs(specs);
    const jpeg = largestFirst[0].format === "jpeg";
    const ranges = planRanges(pages, slots);
    if (ranges.length === 0) return;
    signal?.throwIfAborted();
    // One failure (a page that will not encode, a rejected onPage) stops every process.
    const stop = new AbortController();
    const stopped = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    const dir = await mkdtemp(path.join(os.tmpdir(), "atelier-pdf-"));
    // A page holds a slot from reading its file to the end of onPage: at most `slots` decoded
    // pages in memory; a backlog waits on disk.
    const limit = createLimiter(slots);
    const jobs: Promise<void>[] = [];
    const done = new Set<number>();
    const finish = (page: number, output: string) => {
      const job = limit(async () => {
        stopped.throwIfAborted();
        const bytes = await readFile(output);
        await unlink(output);
        const images = jpeg
          ? await derivePage(bytes, largestFirst)
          : await encodePage(parsePpm(bytes), largestFirst);
        stopped.throwIfAborted();
        await onPage(page, images);
        done.add(page);
      });
      // Handled here so a failure is not "unhandled" while the others run; awaited below.
      job.catch((error) => stop.abort(error));
      jobs.push(job);
    };
    try {
      await eachLimit(ranges, slots, async ({ first, last }) => {
        const args = [
          "-cropbox",
          "-progress",
          "-scale-to-x",
          String(largestFirst[0].width),
          "-scale-to-y",
          "-1",
        ];
        if (jpeg) args.push("-jpeg", "-jpegopt", `quality=${JPEG_QUALITY}`);
        args.push("-f", String(first), "-l", String(last), file, path.join(dir, `r${first}`));
        await runTool(bin("pdftoppm"), args, {
          idleMs,
          signal: stopped,
          onStderrLine: (line) => {
            // "<page> <last page> <file>", written once the file is complete.
            const progress = /^(\d+) \d+ (.+)$/.exec(line);
            if (progress) finish(Number(progress[1]), progress[2]);
          },
        });
      });
      await Promise.all(jobs);
      const missing = ranges.flatMap(({ first, last }) =>
        Array.from({ length: last - first + 1 }, (_, i) => first + i).filter((page) => !done.has(page)),
      );
      if (missing.length)
        throw new PdfError("corrupt", `pdftoppm rendered no image of page ${missing.join(", ")}`);
    } catch (error) {
      stop.abort(error);
      await Promise.allSettled(jobs);
      throw stopped.reason ?? error;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async function text(file: string, pages: number[], signal?: AbortSignal): Promise<Map<number, PageText>> {
    const sorted = normalisePages(pages);
    const result = new Map<number, PageText>();
    if (sorted.length === 0) return result;
    // One process over the whole span: text is cheap (~1 ms a page), a process start is not.
    const first = sorted[0];
    const last = sorted[sorted.length - 1];
    const args = ["-bbox-layout", "-f", String(first), "-l", String(last), file, "-"];
    const [{ stdout }, { sizes }] = await Promise.all([
      runTool(bin("pdftotext"), args, { idleMs, signal, stdout: true }),
      info(file, signal),
    ]);
    const all = parseBboxLayout(stdout, first, sizes);
    for (const page of sorted) {
      const found = all.get(page);
      if (!found) throw new RangeError(`Not a page of this PDF: ${page}`);
      result.set(page, found);
    }
    return result;
  }

  return { name: "native", info, renderPages, text };
}
