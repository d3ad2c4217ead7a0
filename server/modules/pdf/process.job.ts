/**
 * `pdf.process`: a catalogue's file → page count, each page's text and word boxes, and each
 * page's thumbnail and screen images (zoom-pages.ts makes the zoom size on first request).
 * Text is read while the pages render; the pages render once, at screen width, one pdftoppm
 * per core, and the thumbnail is scaled from the screen image. Progress (`processing`,
 * `processingtext` such as "Rendering page 12 of 48", percentage) is written on the row and
 * published, so open lists show it live.
 *
 * Durable and idempotent: the job queue runs it again after a crash or restart, and it
 * picks up where it stopped (pages already rendered for this version are skipped). A broken
 * or encrypted PDF ends in the error state with a plain message and the tool's own words as
 * its detail, never a spinner; so does the last failed attempt of any other error.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sql } from "kysely";
import type { AppContext } from "../../context";
import type { JobHandler } from "../../jobs";
import { assetUrl, CONTENT_TYPE, pageImageKey, pageImageKeys } from "./pdf.keys";
import type { PdfService, ProcessPayload } from "./pdf.service";
import { MAX_PDF_PAGES, PdfError, type PdfRenderer, PROCESSED_SIZES, specOf } from "./render";
import { PAGE_WIDTHS } from "./render/widths";

/** Attempts before a failing catalogue is marked as an error. */
export const PROCESS_ATTEMPTS = 3;
/** At most this often a progress write (and its live update) per catalogue. */
const PROGRESS_MS = 400;

/** The message and detail stored for a failure that is not the PDF's own (storage, database…). */
export const UNEXPECTED_FAILURE = "This PDF could not be processed because of a problem on the server";

export function processJob(
  ctx: AppContext,
  pdfs: PdfService,
  renderer: PdfRenderer,
): JobHandler<ProcessPayload> {
  return async (job) => {
    const { pdfId, version } = job.payload;
    const row = await ctx.db
      .selectFrom("pdfs")
      .select(["file_key", "version", "page_count"])
      .where("id", "=", pdfId)
      .executeTakeFirst();
    // Deleted, or replaced by a newer file whose own job will run: nothing to do.
    if (!row || row.version !== version || !row.file_key) return;

    let lastWrite = 0;
    const progress = async (text: string, percentage: number, force = false) => {
      const now = Date.now();
      if (!force && now - lastWrite < PROGRESS_MS) return;
      lastWrite = now;
      await ctx.db
        .updateTable("pdfs")
        .set({ pdflist_status: "processing", processing_text: text, progress: Math.round(percentage) })
        .where("id", "=", pdfId)
        .where("version", "=", version)
        .execute();
      pdfs.publish("updated", pdfId);
    };

    const dir = await mkdtemp(path.join(os.tmpdir(), "atelier-pdf-"));
    try {
      await progress("Reading the PDF", 1, true);
      const file = path.join(dir, "source.pdf");
      const source = await ctx.storage.get(row.file_key);
      if (!source) throw new Error(`The PDF's file ${row.file_key} is missing from storage`);
      await pipeline(source.body, createWriteStream(file));

      const info = await renderer.info(file);
      if (info.pages > MAX_PDF_PAGES) throw new PdfError("too-many-pages", `${info.pages} pages`);
      const pages = Array.from({ length: info.pages }, (_, i) => i + 1);
      await ctx.db.updateTable("pdfs").set({ page_count: info.pages }).where("id", "=", pdfId).execute();

      // Pages already processed for this version (an earlier attempt died half-way).
      const existing = await ctx.db
        .selectFrom("pdf_pages")
        .select(["page", "version", "images"])
        .where("pdf_id", "=", pdfId)
        .execute();
      const done = new Set(
        existing
          .filter(
            (p) => p.version === version && PROCESSED_SIZES.every((s) => p.images[String(PAGE_WIDTHS[s])]),
          )
          .map((p) => p.page),
      );
      const previousImages = existing
        .filter((p) => p.version !== version)
        .flatMap((p) => Object.values(p.images));
      const todo = pages.filter((p) => !done.has(p));

      // Text while the pages render: a page's images are recorded once its row exists.
      const rowsWritten = writePageRows(ctx, pdfId, version, info, todo, () =>
        renderer.text(file, todo, job.signal),
      );
      rowsWritten.catch(() => {}); // awaited below and by every page; never "unhandled"
      await ctx.db
        .deleteFrom("pdf_pages")
        .where("pdf_id", "=", pdfId)
        .where("page", ">", info.pages)
        .execute();
      await ctx.db
        .deleteFrom("pdf_links")
        .where("pdf_id", "=", pdfId)
        .where("page", ">", info.pages)
        .execute();

      let rendered = done.size;
      const total = info.pages;
      const say = () => `Rendering page ${Math.min(rendered + 1, total)} of ${total}`;
      // Page rows learn their images in batches, with each progress write: a page stored but not
      // yet recorded is rendered again after a crash, which is all a batch can cost. The writes
      // run one after another beside the rendering, which never waits for the database; their
      // first failure stops the rendering at the next page and fails the job.
      const unrecorded = new Map<number, Record<string, string>>();
      let recording = Promise.resolve();
      let recordFailure: { error: unknown } | undefined;
      const record = (force: boolean) => {
        recording = recording
          .then(async () => {
            const now = Date.now();
            if (recordFailure || !unrecorded.size || (!force && now - lastWrite < PROGRESS_MS)) return;
            const batch = [...unrecorded];
            unrecorded.clear();
            await rowsWritten;
            await recordImages(ctx, pdfId, batch);
            await progress(say(), 5 + (rendered / total) * 95, true);
          })
          .catch((error: unknown) => {
            recordFailure ??= { error };
          });
        return recording;
      };
      await progress(say(), 5 + (rendered / total) * 95, true);
      await renderer.renderPages(
        file,
        todo,
        PROCESSED_SIZES.map(specOf),
        async (page, images) => {
          const keys: Record<string, string> = {};
          await Promise.all(
            PROCESSED_SIZES.map(async (size) => {
              const key = pageImageKey(pdfId, version, page, size);
              const image = images.get(PAGE_WIDTHS[size]) as Buffer;
              await ctx.storage.put(key, Readable.from([image]), CONTENT_TYPE[specOf(size).format]);
              keys[String(PAGE_WIDTHS[size])] = key;
            }),
          );
          if (recordFailure) throw recordFailure.error;
          unrecorded.set(page, keys);
          rendered++;
          void record(false);
        },
        job.signal,
      );
      await rowsWritten;
      await record(true);
      if (recordFailure) throw recordFailure.error;

      const finished = await ctx.db
        .updateTable("pdfs")
        .set({
          pdflist_status: "ready",
          processing_text: `${total} page${total === 1 ? "" : "s"} ready`,
          progress: 100,
          error_message: null,
          error_detail: null,
          thumbnail_url: assetUrl(pageImageKey(pdfId, version, 1, "thumbnail")),
          processed_at: new Date(),
        })
        .where("id", "=", pdfId)
        .where("version", "=", version)
        .executeTakeFirst();
      pdfs.publish("updated", pdfId);
      // The previous version's images are no longer shown anywhere.
      if (Number(finished.numUpdatedRows) && version > 1) {
        const current = new Set(pageImageKeys(pdfId, version, total));
        const stale = [...previousImages, ...pageImageKeys(pdfId, version - 1, row.page_count ?? 0)].filter(
          (k) => !current.has(k),
        );
        await ctx.storage.delete([...new Set(stale)]);
      }
    } catch (error) {
      const final = error instanceof PdfError || job.attempt >= PROCESS_ATTEMPTS;
      if (final) {
        const { message, detail } = describeFailure(error);
        await ctx.db
          .updateTable("pdfs")
          .set({
            pdflist_status: "error",
            processing_text: "Processing failed",
            error_message: message,
            error_detail: detail,
          })
          .where("id", "=", pdfId)
          .where("version", "=", version)
          .execute();
        pdfs.publish("updated", pdfId);
        ctx.log.warn({ pdfId, err: error }, "PDF processing ended in an error");
        // A broken file will not mend by trying again.
        if (error instanceof PdfError) return;
      }
      throw error;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}

/** Upserts the rows of `todo` with their size and text (one statement), once the text is read. */
async function writePageRows(
  ctx: AppContext,
  pdfId: string,
  version: number,
  info: { sizes: { width: number; height: number }[] },
  todo: number[],
  readText: () => Promise<Map<number, { text: string; words: unknown[] }>>,
): Promise<void> {
  if (!todo.length) return;
  const texts = await readText();
  const rows = todo.map((page) => {
    const size = info.sizes[page - 1] ?? info.sizes[0];
    const text = texts.get(page) ?? { text: "", words: [] };
    return {
      pdf_id: pdfId,
      page,
      version,
      width: size.width,
      height: size.height,
      text: text.text,
      words: JSON.stringify(text.words),
      images: "{}",
    };
  });
  await ctx.db
    .insertInto("pdf_pages")
    .values(rows)
    .onConflict((oc) =>
      oc.columns(["pdf_id", "page"]).doUpdateSet((eb) => ({
        version: eb.ref("excluded.version"),
        width: eb.ref("excluded.width"),
        height: eb.ref("excluded.height"),
        text: eb.ref("excluded.text"),
        words: eb.ref("excluded.words"),
        images: eb.ref("excluded.images"),
      })),
    )
    .execute();
}

/** Records the image keys of rendered pages, in one statement. */
async function recordImages(ctx: AppContext, pdfId: string, batch: [number, Record<string, string>][]) {
  const values = sql.join(
    batch.map(([page, keys]) => sql`(${page}::integer, ${JSON.stringify(keys)}::jsonb)`),
  );
  await sql`
    update pdf_pages set images = v.images
    from (values ${values}) as v(page, images)
    where pdf_pages.pdf_id = ${pdfId} and pdf_pages.page = v.page`.execute(ctx.db);
}

/** The stored message (plain words) and detail (the tool's or the error's own text) of a failure. */
export function describeFailure(error: unknown): { message: string; detail: string | null } {
  if (error instanceof PdfError) return { message: error.message, detail: error.detail ?? null };
  const text = error instanceof Error ? error.message : String(error);
  return { message: UNEXPECTED_FAILURE, detail: text.slice(0, 2000) || null };
}
