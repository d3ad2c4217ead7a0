/**
 * The PDF library's own routes (docs/pdf-library-api.md); the generic list, get, patch and
 * delete of `/api/pdfs` come from the resource engine. Every route needs the PDF library
 * module (moduleID 1). Uploads stream to storage: a multipart POST for one go, or the
 * resumable protocol (uploads.routes.ts) that the admin app uses.
 */
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { BUTTON_COLOURS, BUTTON_ICONS, BUTTON_SIZES, LINK_KINDS } from "../../../schemas/pdf-library";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest } from "../../http/errors";
import { refuseNul } from "../../http/input-guards";
import { multipartParts } from "../../http/multipart";
import { idParams, uuid } from "../../http/route-params";
import type { ResourceServices } from "../../resources";
import { type StoredUpload, storeUpload, uploadLimits } from "../../storage/upload";
import { PdfService } from "./pdf.service";
import { uploadRoutes } from "./uploads.routes";

const tags = ["pdfs"];
const security = [{ bearer: [] }];
const config = { access: moduleAccess(MODULE_IDS.pdf) };
const pageParams = {
  type: "object",
  required: ["id", "page"],
  properties: { id: uuid, page: { type: "integer", minimum: 1, maximum: 100000 } },
} as const;
const unit = { type: "number", minimum: 0, maximum: 1 } as const;
const linkSchema = {
  type: "object",
  additionalProperties: false,
  required: ["x", "y", "w", "h", "kind", "target"],
  properties: {
    id: uuid,
    x: unit,
    y: unit,
    w: { type: "number", exclusiveMinimum: 0, maximum: 1 },
    h: { type: "number", exclusiveMinimum: 0, maximum: 1 },
    kind: { type: "string", enum: [...LINK_KINDS] },
    target: {
      type: "object",
      additionalProperties: false,
      properties: {
        page: { type: "integer", minimum: 1, maximum: 100000 },
        url: { type: "string", format: "uri", pattern: "^https?://", maxLength: 2000 },
        youtubeId: { type: "string", pattern: "^[A-Za-z0-9_-]{6,20}$" },
        text: { type: "string", minLength: 1, maxLength: 5000 },
        productId: uuid,
      },
    },
    button: {
      anyOf: [
        { type: "null" },
        {
          type: "object",
          additionalProperties: false,
          required: ["icon", "size", "colour"],
          properties: {
            icon: { type: "string", enum: [...BUTTON_ICONS] },
            size: { type: "string", enum: [...BUTTON_SIZES] },
            colour: { type: "string", enum: [...BUTTON_COLOURS] },
            label: { type: "string", maxLength: 60 },
          },
        },
      ],
    },
  },
} as const;

/** The only kind of file a catalogue can be. */
const onlyPdf = (kind: { mime: string }) => kind.mime === "application/pdf";

/** Reads a multipart upload of one PDF (`name` field first, then `file`), stored as it streams. */
async function receivePdf(
  request: FastifyRequest,
  ctx: AppContext,
): Promise<{ upload: StoredUpload; name?: string }> {
  if (!request.isMultipart()) {
    throw badRequest("Send the PDF as multipart/form-data", [{ field: "file", message: "is required" }]);
  }
  let name: string | undefined;
  let upload: StoredUpload | undefined;
  const readParts = async () => {
    for await (const part of multipartParts(request)) {
      if (part.type === "field") {
        if (part.fieldname === "name") {
          name = String(part.value ?? "").slice(0, 200);
          refuseNul({ name }, "form");
        }
        continue;
      }
      if (part.fieldname !== "file" || upload) {
        part.file.resume();
        continue;
      }
      upload = await storeUpload(
        ctx.storage,
        { filename: part.filename, file: part.file },
        uploadLimits(ctx),
        onlyPdf,
        "pdfs",
      );
    }
  };
  try {
    await readParts();
  } catch (error) {
    // A body broken after the file (a bad field, a truncated end) leaves no file behind.
    if (upload) await ctx.storage.delete([upload.key]);
    throw error;
  }
  if (!upload) throw badRequest("No PDF was sent", [{ field: "file", message: "is required" }]);
  return { upload, name };
}

export async function pdfRoutes(app: FastifyInstance, ctx: AppContext, services: ResourceServices) {
  const pdfs = new PdfService(ctx);
  const resource = services.get("pdfs");
  if (!resource) throw new Error("the pdfs resource is not registered");

  await app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: ctx.config.uploadMaxBytes + 1, files: 1, fields: 5, fieldSize: 1024 },
    });

    scope.post(
      "/api/pdfs",
      {
        config,
        schema: {
          tags,
          security,
          summary: "Upload a PDF (multipart: name, then file); it is queued for processing",
          consumes: ["multipart/form-data"],
        },
      },
      async (request, reply) => {
        const { upload, name } = await receivePdf(request, ctx);
        const id = await pdfs.create(upload, name, principalOf(request).userId);
        return reply.status(201).send(await resource.get(id));
      },
    );

    scope.put<{ Params: { id: string } }>(
      "/api/pdfs/:id/file",
      {
        config,
        schema: {
          tags,
          security,
          summary: "Replace a PDF's file (forReplace); its links stay, its pages are processed again",
          params: idParams,
          consumes: ["multipart/form-data"],
        },
      },
      async (request) => {
        if (!(await pdfs.exists(request.params.id))) {
          return resource.get(request.params.id); // the engine's 404
        }
        const { upload } = await receivePdf(request, ctx);
        await pdfs.replaceFile(request.params.id, upload, principalOf(request).userId);
        return resource.get(request.params.id);
      },
    );
  });

  await uploadRoutes(app, ctx, pdfs, resource);

  app.get<{ Params: { id: string } }>(
    "/api/pdfs/:id/pages",
    {
      config,
      schema: { tags, security, summary: "A PDF's pages: size, image URLs, text", params: idParams },
    },
    async (request) => ({ data: await pdfs.pages(request.params.id) }),
  );

  app.get<{ Params: { id: string }; Querystring: { q: string } }>(
    "/api/pdfs/:id/search",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Pages whose text has every word of q",
        params: idParams,
        querystring: {
          type: "object",
          required: ["q"],
          additionalProperties: false,
          properties: { q: { type: "string", minLength: 1, maxLength: 200 } },
        },
      },
    },
    async (request) => ({ data: await pdfs.search(request.params.id, request.query.q) }),
  );

  app.get<{ Params: { id: string; page: number } }>(
    "/api/pdfs/:id/pages/:page/links",
    { config, schema: { tags, security, summary: "The hotspots of a page", params: pageParams } },
    (request) => pdfs.links(request.params.id, request.params.page),
  );

  app.put<{ Params: { id: string; page: number }; Body: { revision: number; links: never[] } }>(
    "/api/pdfs/:id/pages/:page/links",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Replace the hotspots of a page (409 when someone saved in between)",
        params: pageParams,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["revision", "links"],
          properties: {
            revision: { type: "integer", minimum: 0 },
            links: { type: "array", maxItems: 200, items: linkSchema },
          },
        },
      },
    },
    (request) =>
      pdfs.putLinks(request.params.id, request.params.page, request.body, principalOf(request).userId),
  );

  app.get<{ Params: { id: string; page: number } }>(
    "/api/pdfs/:id/pages/:page/suggestions",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Add Product hotspots to offer: products whose sku_code is on the page",
        params: pageParams,
      },
    },
    async (request) => ({ data: await pdfs.suggestions(request.params.id, request.params.page) }),
  );

  // Spec §7: 202 with an etag header and the image's path, which the client joins to the assets
  // host. The pdf-generate variant (`generate=true`) is for sizes made on demand (zoom): it
  // answers at once, `{ success: false }` while the image is being made and
  // `{ success: true, data }` with the etag header once it is there.
  app.get<{ Querystring: { id: string; count: number; imagesize?: string; generate?: boolean } }>(
    "/clients/view-image.dll",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A page image of a PDF: 202, etag header, data = path under the assets host",
        description:
          "With generate=true (the pdf-generate variant) the answer is `{ success, data? }`: success is false while the image is being made (ask again), true with the path once it exists.",
        querystring: {
          type: "object",
          required: ["id", "count"],
          additionalProperties: false,
          properties: {
            id: uuid,
            count: { type: "integer", minimum: 1, maximum: 100000 },
            imagesize: { type: "string", maxLength: 20 },
            generate: { type: "boolean" },
          },
        },
      },
    },
    async (request, reply) => {
      const { id, count, imagesize, generate } = request.query;
      const image = await pdfs.pageImage(id, count, imagesize, generate === true);
      if (!image.ready) return reply.status(202).header("retry-after", "1").send({ success: false });
      reply.status(202).header("etag", image.etag);
      return generate ? { success: true, data: image.data } : { data: image.data };
    },
  );

  return pdfs;
}
