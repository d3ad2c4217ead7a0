/**
 * The pure-npm renderer, for hosts without poppler: pdf.js draws on @napi-rs/canvas in
 * worker threads, one per core, each with the PDF open; pages are handed out one at a time
 * (a thread asks for its next page while the main thread encodes the last one).
 */
import { createRequire } from "node:module";
import os from "node:os";
import { encodePage, normaliseSpecs } from "./encode-page";
import { normalisePages } from "./pages";
import type { RenderedPixels } from "./pdfjs-protocol";
import { PdfjsThread } from "./pdfjs-thread";
import type { PageImageSpec, PageImages, PageText, PdfInfo, PdfRenderer } from "./types";

export interface PdfjsRendererOptions {
  /** Worker threads; default `os.availableParallelism()`. */
  slots?: number;
  /** Give up on a page (and end its thread) after this long. */
  idleMs?: number;
}

/** Whether pdf.js and the canvas binding load here (the binding is a per-platform package). */
export function pdfjsAvailable(): boolean {
  const require = createRequire(import.meta.url);
  try {
    require.resolve("pdfjs-dist/legacy/build/pdf.mjs");
    require("@napi-rs/canvas");
    return true;
  } catch {
    return false;
  }
}

/** Text costs pdf.js ~10 ms a page and a thread ~0.5 s to start: a thread per this many pages. */
const TEXT_PAGES_PER_THREAD = 50;

export function createPdfjsRenderer(options: PdfjsRendererOptions = {}): PdfRenderer {
  const slots = options.slots ?? os.availableParallelism();
  const idleMs = options.idleMs ?? 60_000;

  /**
   * Runs `lane` on `count` threads over a shared queue of pages; the first failure (or an
   * abort) ends every thread and is what rejects.
   */
  async function withThreads(
    file: string,
    pages: number[],
    count: number,
    lane: (thread: PdfjsThread, next: () => number | undefined) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void> {
    signal?.throwIfAborted();
    const threads = Array.from(
      { length: Math.max(1, Math.min(count, pages.length)) },
      () => new PdfjsThread(file, idleMs),
    );
    const queue = [...pages];
    let failure: unknown;
    const stop = (reason: unknown) => {
      failure ??= reason;
      for (const thread of threads) void thread.close(failure);
    };
    const onAbort = () => stop(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await Promise.all(threads.map((thread) => lane(thread, () => queue.shift()).catch(stop)));
      if (failure !== undefined) throw failure;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      await Promise.all(threads.map((thread) => thread.close()));
    }
  }

  async function info(file: string): Promise<PdfInfo> {
    const thread = new PdfjsThread(file, idleMs);
    try {
      return await thread.call<PdfInfo>({ op: "info" });
    } finally {
      await thread.close();
    }
  }

  async function renderPages(
    file: string,
    pages: number[],
    specs: readonly PageImageSpec[],
    onPage: (page: number, images: PageImages) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void> {
    const largestFirst = normaliseSpecs(specs);
    const queue = normalisePages(pages);
    if (queue.length === 0) return;
    const render = (thread: PdfjsThread, page: number) =>
      thread
        .call<RenderedPixels>({ op: "render", page, width: largestFirst[0].width })
        .then((pixels) => ({ page, pixels }));
    await withThreads(
      file,
      queue,
      slots,
      async (thread, next) => {
        let nextPage = next();
        let current = nextPage === undefined ? undefined : render(thread, nextPage);
        while (current) {
          const { page, pixels } = await current;
          nextPage = next();
          current = nextPage === undefined ? undefined : render(thread, nextPage);
          // Not left unhandled while we encode: a failure is seen at the next await.
          current?.catch(() => {});
          const data = Buffer.from(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength);
          const images = await encodePage(
            { data, width: pixels.width, height: pixels.height, channels: 4 },
            largestFirst,
          );
          signal?.throwIfAborted();
          await onPage(page, images);
        }
      },
      signal,
    );
  }

  async function text(file: string, pages: number[], signal?: AbortSignal): Promise<Map<number, PageText>> {
    const result = new Map<number, PageText>();
    const queue = normalisePages(pages);
    if (queue.length === 0) return result;
    const count = Math.min(slots, Math.ceil(queue.length / TEXT_PAGES_PER_THREAD));
    await withThreads(
      file,
      queue,
      count,
      async (thread, next) => {
        for (let page = next(); page !== undefined; page = next()) {
          result.set(page, await thread.call<PageText>({ op: "text", page }));
        }
      },
      signal,
    );
    return new Map([...result].sort(([a], [b]) => a - b));
  }

  return { name: "pdfjs", info, renderPages, text };
}
