/**
 * The public side of published catalogues, no sign-in: the viewer page (`/view/{id or slug}`,
 * its own light bundle `viewer.html`), its data, text search, and the events that feed the
 * analytics (views, visitors, searched words, hotspot clicks). Unpublished or unknown
 * catalogues answer 404. Events are rate limited per address.
 */
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import {
  PDF_EVENT_TYPES,
  type PdfEventType,
  type PdfLink,
  type PublicPage,
  type PublicPdf,
} from "../../../schemas/pdf-library";
import { UUID } from "../../../schemas/uuid";
import { markScopePublic } from "../../auth/access";
import { hit } from "../../auth/rate-limit";
import type { AppContext } from "../../context";
import { builtPage } from "../../http/built-pages";
import { HttpError, notFound } from "../../http/errors";
import { pageHeaders } from "../../http/security-headers";
import { pageImageUrls } from "./pdf.keys";
import type { PdfService } from "./pdf.service";
import { viewerSources } from "./viewer-csp";

/** Events one address may send per minute (a reader turning pages fast stays far below). */
export const PUBLIC_EVENTS_PER_MINUTE = 240;

export async function publicPdfRoutes(app: FastifyInstance, ctx: AppContext, pdfs: PdfService) {
  const published = async (idOrSlug: string) => {
    const row = await ctx.db
      .selectFrom("pdfs")
      .select(["id", "name", "slug", "page_count"])
      .where((eb) => (UUID.test(idOrSlug) ? eb("id", "=", idOrSlug) : eb("slug", "=", idOrSlug)))
      .where("pdfstatus", "=", true)
      .where("pdflist_status", "=", "ready")
      .executeTakeFirst();
    if (!row) throw notFound("This catalogue is not published");
    return row;
  };

  await app.register(async (scope) => {
    markScopePublic(scope);

    scope.get<{ Params: { ref: string } }>(
      "/view/:ref",
      { schema: { hide: true } },
      async (request, reply) => {
        const page = builtPage(path.join(ctx.config.clientDir, "viewer.html"));
        if (!page)
          return reply
            .status(503)
            .type("text/plain")
            .send("The viewer is not built yet: run `npm run build`.");
        // Unpublished catalogues get the page too; it says so itself (the data answers 404).
        const sources = await viewerSources(ctx.db, request.params.ref);
        return reply
          .headers({
            "cache-control": "no-cache",
            ...pageHeaders(ctx.config, "public", { ...sources, scriptHashes: page.scriptHashes }),
          })
          .type("text/html")
          .send(page.html);
      },
    );

    scope.get<{ Params: { ref: string } }>(
      "/public/pdfs/:ref",
      {
        schema: {
          tags: ["public"],
          summary: "A published catalogue: pages, hotspots, products",
          params: { type: "object", properties: { ref: { type: "string", minLength: 1, maxLength: 80 } } },
        },
      },
      async (request, reply): Promise<PublicPdf> => {
        const pdf = await published(request.params.ref);
        const [pages, links] = await Promise.all([
          ctx.db
            .selectFrom("pdf_pages")
            .select(["page", "version", "width", "height", "images"])
            .where("pdf_id", "=", pdf.id)
            .orderBy("page")
            .execute(),
          ctx.db
            .selectFrom("pdf_links")
            .select(["id", "page", "x", "y", "w", "h", "kind", "target", "button"])
            .where("pdf_id", "=", pdf.id)
            .orderBy("page")
            .orderBy("position")
            .execute(),
        ]);
        const productIds = [
          ...new Set(links.map((l) => l.target.productId).filter((v): v is string => typeof v === "string")),
        ];
        const products = productIds.length
          ? await sql<{
              id: string;
              name: string;
              sku_code: string;
              price: string;
              currency: string;
              description: string | null;
              images: string[] | null;
            }>`
              select id, name, sku_code, price, currency, description, images from products where id = any(${productIds}::uuid[])`.execute(
              ctx.db,
            )
          : { rows: [] };
        const store = await ctx.db
          .selectFrom("store_connections")
          .select("id")
          .where("is_default", "=", true)
          .executeTakeFirst();
        reply.header("cache-control", "public, max-age=30");
        return {
          id: pdf.id,
          name: pdf.name,
          slug: pdf.slug,
          pageCount: pdf.page_count ?? pages.length,
          pages: pages.map((p) => ({
            page: p.page,
            width: p.width,
            height: p.height,
            // Every page of a ready catalogue has its thumbnail and screen images; the zoom
            // size's URL makes it on first request.
            images: pageImageUrls(pdf.id, p) as PublicPage["images"],
          })),
          links: links.map((l) => ({
            id: l.id,
            page: l.page,
            x: l.x,
            y: l.y,
            w: l.w,
            h: l.h,
            kind: l.kind as PdfLink["kind"],
            target: l.target,
            button: l.button as PdfLink["button"],
          })),
          products: Object.fromEntries(
            products.rows.map((p) => [
              p.id,
              {
                id: p.id,
                name: p.name,
                sku_code: p.sku_code,
                price: Number(p.price),
                currency: p.currency || "INR",
                description: p.description,
                image: p.images?.[0] ?? null,
              },
            ]),
          ),
          checkout: Boolean(store),
        };
      },
    );

    scope.get<{ Params: { ref: string }; Querystring: { q: string } }>(
      "/public/pdfs/:ref/search",
      {
        schema: {
          tags: ["public"],
          summary: "Pages of a published catalogue whose text has every word of q",
          querystring: {
            type: "object",
            required: ["q"],
            additionalProperties: false,
            properties: { q: { type: "string", minLength: 1, maxLength: 200 } },
          },
        },
      },
      async (request) => {
        const pdf = await published(request.params.ref);
        return { data: await pdfs.search(pdf.id, request.query.q) };
      },
    );

    scope.post<{
      Body: {
        pdfId: string;
        type: PdfEventType;
        visitorId: string;
        page?: number;
        word?: string;
        linkId?: string;
      };
    }>(
      "/public/events",
      {
        // A beacon retried after a network failure is counted once (scoped to the address).
        config: { idempotent: true },
        schema: {
          tags: ["public"],
          summary: "Record a view, a search or a hotspot click of a published catalogue",
          body: {
            type: "object",
            additionalProperties: false,
            required: ["pdfId", "type", "visitorId"],
            properties: {
              pdfId: { type: "string", format: "uuid" },
              type: { type: "string", enum: [...PDF_EVENT_TYPES] },
              visitorId: { type: "string", minLength: 8, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" },
              page: { type: "integer", minimum: 1, maximum: 100000 },
              word: { type: "string", minLength: 1, maxLength: 100 },
              linkId: { type: "string", format: "uuid" },
            },
          },
        },
      },
      async (request, reply) => {
        const count = await hit(ctx.db, `pdf-events:${request.ip}`, 60);
        if (count > PUBLIC_EVENTS_PER_MINUTE) throw new HttpError(429, "Too many events, slow down");
        const { pdfId, type, visitorId, page, word, linkId } = request.body;
        await published(pdfId);
        await ctx.db
          .insertInto("pdf_events")
          .values({
            pdf_id: pdfId,
            type,
            visitor_id: visitorId,
            page: page ?? null,
            word: type === "search" && word ? word.trim().toLowerCase().slice(0, 100) : null,
            link_id: linkId ?? null,
          })
          .execute();
        return reply.status(204).send();
      },
    );
  });
}
