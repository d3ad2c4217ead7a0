/**
 * A catalogue page's zoom size, made on first request (server/storage/on-demand.ts): its key
 * (`pdfs/<id>/v<version>/p<page>-w2400.webp`) is known from processing on, and the assets
 * service or view-image.dll makes it once when it is first asked for. Processing makes only
 * what every reader needs (thumbnail and screen), which is what an uploader waits for.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { AppContext } from "../../context";
import { notFound } from "../../http/errors";
import { createLimiter } from "../../parallel";
import type { OnDemandSource } from "../../storage/on-demand";
import { CONTENT_TYPE, parseZoomKey } from "./pdf.keys";
import { type PdfRenderer, specOf } from "./render";

/** Zoom images one address without a session may have made per minute: a reader zooms a few pages. */
export const ZOOMS_PER_MINUTE = 60;

/** Source files kept on local disk, most recently used: zooming through a catalogue reads one file once. */
const KEEP_FILES = 4;

interface LocalCopy {
  /** Its temp folder, once made. */
  dir?: string;
  file: Promise<string>;
}

/** The zoom source; `renderer` is the one processing uses. */
export function zoomPageSource(ctx: AppContext, renderer: PdfRenderer): OnDemandSource {
  // One renderer per core at most: a burst of first zooms queues instead of overloading.
  const limit = createLimiter(os.availableParallelism());
  const copies = new Map<string, LocalCopy>();

  /** A local copy of a stored PDF (keys are never reused, so a copy never goes stale). */
  function localCopy(fileKey: string): Promise<string> {
    const cached = copies.get(fileKey);
    if (cached) {
      copies.delete(fileKey);
      copies.set(fileKey, cached);
      return cached.file;
    }
    const copy: LocalCopy = { file: Promise.resolve("") };
    copy.file = (async () => {
      const folder = await mkdtemp(path.join(os.tmpdir(), "atelier-zoom-"));
      copy.dir = folder;
      const source = await ctx.storage.get(fileKey);
      if (!source) throw notFound("This catalogue's file is missing");
      const file = path.join(folder, "source.pdf");
      await pipeline(source.body, createWriteStream(file));
      return file;
    })();
    copy.file.catch(() => copies.delete(fileKey));
    copies.set(fileKey, copy);
    while (copies.size > KEEP_FILES) {
      const [oldest, old] = copies.entries().next().value as [string, LocalCopy];
      copies.delete(oldest);
      // Removed once a render using it has had time to open it; pdftoppm keeps its handle.
      old.file.finally(() => old.dir && rm(old.dir, { recursive: true, force: true })).catch(() => {});
    }
    return copy.file;
  }

  return {
    name: "pdf-zoom",
    anonymousPerMinute: ZOOMS_PER_MINUTE,
    owns: (key) => parseZoomKey(key) !== null,
    async make(key, signal) {
      const parsed = parseZoomKey(key);
      if (!parsed) throw notFound("File not found");
      const pdf = await ctx.db
        .selectFrom("pdfs")
        .select(["file_key", "version", "page_count"])
        .where("id", "=", parsed.pdfId)
        .executeTakeFirst();
      // Only the current version's pages: an old key must not bring back a replaced file.
      const page = await ctx.db
        .selectFrom("pdf_pages")
        .select("page")
        .where("pdf_id", "=", parsed.pdfId)
        .where("page", "=", parsed.page)
        .where("version", "=", parsed.version)
        .executeTakeFirst();
      if (!pdf?.file_key || pdf.version !== parsed.version || !page)
        throw notFound("This page does not exist");
      const file = await localCopy(pdf.file_key);
      const spec = specOf("zoom");
      let image: Buffer | undefined;
      await limit(() =>
        renderer.renderPages(
          file,
          [parsed.page],
          [spec],
          async (_page, images) => {
            image = images.get(spec.width);
          },
          signal,
        ),
      );
      if (!image) throw new Error(`The renderer made no image of page ${parsed.page}`);
      return { body: image, contentType: CONTENT_TYPE[spec.format] };
    },
  };
}
