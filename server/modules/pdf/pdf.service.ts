/**
 * The PDF library's operations beyond the generic resource routes: a catalogue from an
 * uploaded file (and a replaced file), its pages, hotspot links with an optimistic lock
 * per page, full-text search, SKU suggestions and the spec's `view-image.dll` answer (with
 * its pdf-generate variant for the zoom size, made on demand).
 * Every change is published as a `pdfs` resource change, so open lists and editors refresh.
 */
import { randomBytes } from "node:crypto";
import { type Kysely, sql, type Transaction } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import {
  type LinkSuggestion,
  PAGE_IMAGE_SIZES,
  type PageImageSize,
  type PageLinks,
  type PdfPage,
} from "../../../schemas/pdf-library";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { badRequest, conflict, HttpError, notFound } from "../../http/errors";
import { onDemandOf } from "../../storage/on-demand";
import type { StoredUpload } from "../../storage/upload";
import { assetUrl, imageKeyOf, pageImageUrls } from "./pdf.keys";
import { checkLink, toLink } from "./pdf-links";

export const PROCESS_JOB = "pdf.process";

export interface ProcessPayload {
  pdfId: string;
  version: number;
}

type Db = Kysely<Database> | Transaction<Database>;

/** A name as the start of a public address: "Spring catalogue 2026" → "spring-catalogue-2026". */
export function slugOf(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug.length >= 3 ? slug : `catalogue${slug ? `-${slug}` : ""}`;
}

/** The catalogue's name from an uploaded file name, when none is given. */
export const nameFromFile = (fileName: string) =>
  fileName
    .replace(/\.pdf$/i, "")
    .trim()
    .slice(0, 200) || "Catalogue";

export class PdfService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.db;
  }

  /** Tells open lists and editors that a catalogue changed. */
  publish(type: "created" | "updated" | "deleted", id: string, actorId: string | null = null) {
    this.ctx.events.publish({
      resource: "pdfs",
      moduleID: MODULE_IDS.pdf,
      type,
      ids: [id],
      actorId: actorId ?? "",
    });
  }

  private async freeSlug(db: Db, name: string): Promise<string> {
    const base = slugOf(name);
    const taken = await db.selectFrom("pdfs").select("id").where("slug", "=", base).executeTakeFirst();
    return taken ? `${base}-${randomBytes(3).toString("hex")}` : base;
  }

  /** A new catalogue from a stored PDF, queued for processing in the same transaction. */
  async create(upload: StoredUpload, name: string | undefined, actorId: string): Promise<string> {
    const title = (name?.trim() || nameFromFile(upload.originalName)).slice(0, 200);
    const id = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("pdfs")
        .values({
          name: title,
          slug: await this.freeSlug(trx, title),
          pdflist_status: "queued",
          processing_text: "Waiting to be processed",
          progress: 0,
          file_key: upload.key,
          file_url: assetUrl(upload.key),
          file_size: upload.size,
          original_name: upload.originalName,
          version: 1,
          created_by: actorId,
          updated_by: actorId,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await this.ctx.jobs.enqueue<ProcessPayload>(
        PROCESS_JOB,
        { pdfId: row.id, version: 1 },
        { key: row.id, db: trx },
      );
      return row.id;
    });
    this.publish("created", id, actorId);
    return id;
  }

  /**
   * Replaces a catalogue's file (`forReplace`): a new version is processed; its links stay.
   * The old file goes once the new one is recorded; old page images once it is processed.
   */
  async replaceFile(id: string, upload: StoredUpload, actorId: string): Promise<void> {
    const old = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom("pdfs")
        .select(["file_key", "version"])
        .where("id", "=", id)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw notFound("PDF not found");
      const version = (row.version ?? 0) + 1;
      await trx
        .updateTable("pdfs")
        .set({
          version,
          pdflist_status: "queued",
          processing_text: "Waiting to be processed",
          progress: 0,
          error_message: null,
          file_key: upload.key,
          file_url: assetUrl(upload.key),
          file_size: upload.size,
          original_name: upload.originalName,
          updated_at: new Date(),
          updated_by: actorId,
        })
        .where("id", "=", id)
        .execute();
      await this.ctx.jobs.enqueue<ProcessPayload>(PROCESS_JOB, { pdfId: id, version }, { key: id, db: trx });
      return row;
    });
    if (old.file_key) await this.ctx.storage.delete([old.file_key]);
    this.publish("updated", id, actorId);
  }

  async exists(id: string): Promise<boolean> {
    return Boolean(await this.db.selectFrom("pdfs").select("id").where("id", "=", id).executeTakeFirst());
  }

  /** The pages of a catalogue, in order, with their image URLs and text. */
  async pages(id: string): Promise<PdfPage[]> {
    if (!(await this.exists(id))) throw notFound("PDF not found");
    const rows = await this.db
      .selectFrom("pdf_pages")
      .select(["page", "version", "width", "height", "text", "images", "links_revision"])
      .where("pdf_id", "=", id)
      .orderBy("page")
      .execute();
    return rows.map((r) => ({
      page: r.page,
      width: r.width,
      height: r.height,
      text: r.text,
      images: pageImageUrls(id, r),
      linksRevision: r.links_revision,
    }));
  }

  /**
   * Spec §7 `view-image.dll`: the storage key of a page image (the client joins it to the
   * assets host) and its ETag. `imagesize` is a size name or one of the rendered widths. The
   * zoom size is made on first request: this waits for it, unless `generate` (the spec's
   * pdf-generate variant) asks to start it and answer `ready: false` until it is made.
   */
  async pageImage(
    id: string,
    page: number,
    imagesize: string | undefined,
    generate = false,
  ): Promise<{ ready: true; data: string; etag: string } | { ready: false }> {
    const size = sizeOf(imagesize);
    const pdf = await this.db
      .selectFrom("pdfs")
      .select(["pdflist_status", "page_count"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!pdf) throw notFound("PDF not found");
    const row = await this.db
      .selectFrom("pdf_pages")
      .select(["images", "version"])
      .where("pdf_id", "=", id)
      .where("page", "=", page)
      .executeTakeFirst();
    const key = row ? imageKeyOf(id, page, row, size) : undefined;
    if (!key) {
      if (pdf.pdflist_status !== "ready" && pdf.pdflist_status !== "error") {
        if (generate) return { ready: false };
        throw new HttpError(409, "The PDF is still being processed");
      }
      throw notFound(`Page ${page} does not exist`);
    }
    // The caller has a session (the route needs the PDF library module): no rate limit.
    const caller = { anonymous: false, address: "" };
    const onDemand = onDemandOf(this.ctx);
    const object = generate ? await onDemand.start(key, caller) : await onDemand.ensure(key, caller);
    if (!object) return { ready: false };
    return { ready: true, data: key, etag: object.etag };
  }

  async links(id: string, page: number): Promise<PageLinks> {
    const pageRow = await this.pageRow(this.db, id, page);
    const rows = await this.db
      .selectFrom("pdf_links")
      .select(["id", "x", "y", "w", "h", "kind", "target", "button"])
      .where("pdf_id", "=", id)
      .where("page", "=", page)
      .orderBy("position")
      .execute();
    return { revision: pageRow.links_revision, links: rows.map(toLink) };
  }

  /**
   * Replaces a page's links when `revision` is still the page's: otherwise someone saved in
   * between, and the answer is 409 with the current links, so nobody overwrites silently.
   */
  async putLinks(id: string, page: number, body: PageLinks, actorId: string): Promise<PageLinks> {
    for (const [i, link] of body.links.entries()) checkLink(link, i);
    const saved = await this.db.transaction().execute(async (trx) => {
      const pageRow = await this.pageRow(trx, id, page, true);
      if (pageRow.links_revision !== body.revision) {
        throw conflict("Someone else changed this page's hotspots; their version is loaded now", [
          { field: "revision", message: `is ${pageRow.links_revision} now` },
        ]);
      }
      await trx.deleteFrom("pdf_links").where("pdf_id", "=", id).where("page", "=", page).execute();
      if (body.links.length) {
        await trx
          .insertInto("pdf_links")
          .values(
            body.links.map((l, position) => ({
              pdf_id: id,
              page,
              x: l.x,
              y: l.y,
              w: l.w,
              h: l.h,
              kind: l.kind,
              target: JSON.stringify(l.target ?? {}),
              button: l.button ? JSON.stringify(l.button) : null,
              position,
              created_by: actorId,
              updated_by: actorId,
            })),
          )
          .execute();
      }
      const revision = pageRow.links_revision + 1;
      await trx
        .updateTable("pdf_pages")
        .set({ links_revision: revision })
        .where("pdf_id", "=", id)
        .where("page", "=", page)
        .execute();
      return revision;
    });
    this.publish("updated", id, actorId);
    return { ...(await this.links(id, page)), revision: saved };
  }

  private async pageRow(db: Db, id: string, page: number, lock = false) {
    let query = db
      .selectFrom("pdf_pages")
      .select(["links_revision", "words"])
      .where("pdf_id", "=", id)
      .where("page", "=", page);
    if (lock) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) {
      if (!(await this.exists(id))) throw notFound("PDF not found");
      throw notFound(`Page ${page} does not exist (yet)`);
    }
    return row;
  }

  /** Pages whose text matches `q` (every word, prefixes too), best first, with a snippet. */
  async search(id: string, q: string, limit = 50): Promise<{ page: number; snippet: string }[]> {
    const terms = q
      .toLowerCase()
      .split(/[^\p{L}\p{N}_-]+/u)
      .filter(Boolean)
      .slice(0, 8);
    if (!terms.length) return [];
    const query = terms
      .map((t) => `${t.replace(/[^\p{L}\p{N}_]/gu, "")}:*`)
      .filter((t) => t !== ":*")
      .join(" & ");
    if (!query) return [];
    const rows = await sql<{ page: number; snippet: string }>`
      select page, ts_headline('simple', text, to_tsquery('simple', ${query}),
               'MaxWords=18, MinWords=6, StartSel=«, StopSel=»') as snippet
      from pdf_pages
      where pdf_id = ${id} and tsv @@ to_tsquery('simple', ${query})
      order by ts_rank(tsv, to_tsquery('simple', ${query})) desc, page
      limit ${limit}`.execute(this.db);
    return rows.rows;
  }

  /**
   * Add Product hotspots to offer on a page: catalogue products whose `sku_code` is a word of
   * the page's text, at that word's box, unless the page already links that product.
   */
  async suggestions(id: string, page: number): Promise<LinkSuggestion[]> {
    const { words } = await this.pageRow(this.db, id, page);
    const byText = new Map<string, (typeof words)[number]>();
    for (const w of words) {
      const token = w.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "").toLowerCase();
      if (token.length >= 2 && !byText.has(token)) byText.set(token, w);
    }
    if (!byText.size) return [];
    const products = await sql<{ id: string; sku_code: string; name: string }>`
      select id, sku_code, name from products where lower(sku_code) = any(${[...byText.keys()]}::text[]) limit 100`.execute(
      this.db,
    );
    if (!products.rows.length) return [];
    const linked = await this.db
      .selectFrom("pdf_links")
      .select(sql<string>`target->>'productId'`.as("productId"))
      .where("pdf_id", "=", id)
      .where("page", "=", page)
      .execute();
    const already = new Set(linked.map((l) => l.productId));
    return products.rows
      .filter((p) => !already.has(p.id))
      .map((p) => {
        const w = byText.get(p.sku_code.toLowerCase()) as (typeof words)[number];
        return { productId: p.id, skuCode: p.sku_code, productName: p.name, x: w.x, y: w.y, w: w.w, h: w.h };
      });
  }
}

function sizeOf(imagesize: string | undefined): PageImageSize {
  if (!imagesize) return "screen";
  if (imagesize in PAGE_IMAGE_SIZES) return imagesize as PageImageSize;
  const byWidth = (Object.keys(PAGE_IMAGE_SIZES) as PageImageSize[]).find(
    (k) => String(PAGE_IMAGE_SIZES[k]) === imagesize,
  );
  if (byWidth) return byWidth;
  throw badRequest("Unknown image size", [
    {
      field: "imagesize",
      message: `must be one of ${Object.keys(PAGE_IMAGE_SIZES).join(", ")} or their widths`,
    },
  ]);
}
