/**
 * `pdf.process`: a catalogue's file → page count, each page's text and word boxes, and each
 * page rendered to WebP at every size (PAGE_IMAGE_SIZES), in parallel up to the cores.
 * Progress (`processing`, `processingtext` such as "Rendering page 12 of 48", percentage) is
 * written on the row and published, so open lists show it live.
 *
 * Durable and idempotent: the job queue runs it again after a crash or restart, and it
 * picks up where it stopped (pages already rendered for this version are skipped). A broken
 * or encrypted PDF ends in the error state with the renderer's reason, never a spinner; so
 * does the last failed attempt of any other error.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PAGE_IMAGE_SIZES, PAGE_IMAGE_WIDTHS } from "../../../schemas/pdf-library";
import type { AppContext } from "../../context";
import type { JobHandler } from "../../jobs";
import { assetUrl, pageImageKey, pageImageKeys } from "./pdf.keys";
import type { PdfService, ProcessPayload } from "./pdf.service";
import { PdfError, type PdfRenderer } from "./render";

/** Attempts before a failing catalogue is marked as an error. */
export const PROCESS_ATTEMPTS = 3;
/** At most this often a progress write (and its live update) per catalogue. */
const PROGRESS_MS = 400;

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
          .filter((p) => p.version === version && PAGE_IMAGE_WIDTHS.every((w) => p.images[String(w)]))
          .map((p) => p.page),
      );
      const previousImages = existing
        .filter((p) => p.version !== version)
        .flatMap((p) => Object.values(p.images));

      await progress("Reading the text", 3, true);
      const todo = pages.filter((p) => !done.has(p));
      const texts = await renderer.text(file, todo);
      for (const page of todo) {
        const size = info.sizes[page - 1] ?? info.sizes[0];
        const text = texts.get(page) ?? { text: "", words: [] };
        const values = {
          version,
          width: size.width,
          height: size.height,
          text: text.text,
          words: JSON.stringify(text.words),
          images: "{}",
        };
        await ctx.db
          .insertInto("pdf_pages")
          .values({ pdf_id: pdfId, page, ...values })
          .onConflict((oc) => oc.columns(["pdf_id", "page"]).doUpdateSet(values))
          .execute();
      }
      // A shorter new file: its former last pages go, with their links.
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
      await progress(
        `Rendering page ${Math.min(rendered + 1, total)} of ${total}`,
        5 + (rendered / total) * 95,
        true,
      );
      await renderer.renderPages(
        file,
        todo,
        [...PAGE_IMAGE_WIDTHS],
        async (page, images) => {
          const keys: Record<string, string> = {};
          for (const [width, webp] of images) {
            const key = pageImageKey(pdfId, version, page, width);
            await ctx.storage.put(key, Readable.from([webp]), "image/webp");
            keys[String(width)] = key;
          }
          await ctx.db
            .updateTable("pdf_pages")
            .set({ images: JSON.stringify(keys) })
            .where("pdf_id", "=", pdfId)
            .where("page", "=", page)
            .execute();
          rendered++;
          await progress(
            `Rendering page ${Math.min(rendered + 1, total)} of ${total}`,
            5 + (rendered / total) * 95,
          );
        },
        job.signal,
      );

      const cover = pageImageKey(pdfId, version, 1, PAGE_IMAGE_SIZES.thumbnail);
      const finished = await ctx.db
        .updateTable("pdfs")
        .set({
          pdflist_status: "ready",
          processing_text: `${total} page${total === 1 ? "" : "s"} ready`,
          progress: 100,
          error_message: null,
          thumbnail_url: assetUrl(cover),
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
        const message =
          error instanceof PdfError
            ? error.message
            : `Processing failed: ${error instanceof Error ? error.message : String(error)}`;
        await ctx.db
          .updateTable("pdfs")
          .set({
            pdflist_status: "error",
            processing_text: "Processing failed",
            error_message: message.slice(0, 1000),
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
