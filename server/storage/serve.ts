/**
 * The assets service (`/assets/<key>`): stored files, public by unguessable, never reused
 * keys, with ETag/304, single byte ranges (206/416) and year-long immutable caching; and files
 * made on first request (on-demand.ts): image renditions (`?w=320&format=webp`, renditions.ts)
 * and whatever keys a module's source makes (a catalogue page's zoom size), served the same way.
 *
 * Types a browser could run (SVG, anything not a raster image, PDF or media) are served only
 * as attachments, under a CSP sandbox.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { RENDITION_FORMATS, RENDITION_WIDTHS, THUMBNAIL_WIDTH } from "../../schemas/dam";
import { PUBLIC } from "../auth/access";
import type { AppContext } from "../context";
import { badRequest, notFound } from "../http/errors";
import { type Caller, onDemandOf } from "./on-demand";
import { RENDERABLE, type RenditionFormat, renditionKey, renditionSource } from "./renditions";
import { assertKey, type ByteRange, type StorageDriver } from "./storage";

export { RENDERABLE, renditionKey, renditionKeys } from "./renditions";

export const ASSETS_PREFIX = "/assets";

const INLINE = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/avif",
  "application/pdf",
  "video/mp4",
  "video/webm",
  "audio/mpeg",
]);

/** The URLs of a stored file: the original and, for images, a thumbnail rendition. */
export function assetUrls(key: string, mime: string): { url: string; thumbnailUrl: string | null } {
  const url = `${ASSETS_PREFIX}/${key}`;
  return { url, thumbnailUrl: RENDERABLE.has(mime) ? `${url}?w=${THUMBNAIL_WIDTH}&format=webp` : null };
}

/** Parses a single `bytes=` range against a size: a range, "unsatisfiable", or null (serve all). */
export function parseRange(header: string | undefined, size: number): ByteRange | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null; // multiple or malformed: ignore
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

interface RenditionQuery {
  w?: number;
  format?: RenditionFormat;
}

/** Requests to the assets service carry no session: every caller counts as anonymous, by address. */
const callerOf = (request: FastifyRequest): Caller => ({
  anonymous: !request.principal,
  address: request.ip,
});

export async function assetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const onDemand = onDemandOf(ctx);
  onDemand.register(renditionSource(ctx));

  app.get<{ Params: { "*": string }; Querystring: RenditionQuery }>(
    `${ASSETS_PREFIX}/*`,
    {
      // The key is the file's only lock (a form's uploads are reached by it alone).
      config: { access: PUBLIC, secrets: { params: ["*"] } },
      // Stored bytes as they are: ranges and ETags describe them (server/http/compression.ts).
      compress: false,
      schema: {
        tags: ["assets"],
        summary: "A stored file, a file made on first request, or an image rendition (?w=&format=)",
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            w: { type: "integer", enum: [...RENDITION_WIDTHS] },
            format: { type: "string", enum: [...RENDITION_FORMATS] },
          },
        },
      },
    },
    async (request, reply) => {
      const key = validKey(request.params["*"]);
      if (!key || key.startsWith("renditions/")) throw notFound("File not found");
      const { w, format } = request.query;
      if (w === undefined && format === undefined) {
        // A key a source makes (a page's zoom size) exists once someone asked for it.
        if (onDemand.sourceFor(key) && !(await ctx.storage.head(key)))
          await onDemand.ensure(key, callerOf(request));
        return send(ctx.storage, key, request, reply);
      }
      const original = await ctx.storage.head(key);
      if (!original) throw notFound("File not found");
      if (!RENDERABLE.has(original.contentType)) {
        throw badRequest("Renditions are made of images only", [
          { field: "w", message: "is for images only" },
        ]);
      }
      const target = renditionKey(key, w ?? THUMBNAIL_WIDTH, format ?? "webp");
      await onDemand.ensure(target, callerOf(request));
      return send(ctx.storage, target, request, reply);
    },
  );
}

function validKey(raw: string): string | null {
  try {
    return assertKey(raw);
  } catch {
    return null;
  }
}

async function send(storage: StorageDriver, key: string, request: FastifyRequest, reply: FastifyReply) {
  const object = await storage.head(key);
  if (!object) throw notFound("File not found");
  reply
    .header("Cache-Control", "public, max-age=31536000, immutable")
    .header("ETag", object.etag)
    .header("Last-Modified", object.lastModified.toUTCString())
    .header("Accept-Ranges", "bytes")
    .header("X-Content-Type-Options", "nosniff")
    .header("Content-Type", object.contentType);
  if (!INLINE.has(object.contentType)) {
    const name = key.split("/").pop() ?? "file";
    reply
      .header("Content-Disposition", `attachment; filename="${name}"`)
      .header("Content-Security-Policy", "default-src 'none'; sandbox");
  }
  const inm = request.headers["if-none-match"];
  if (inm?.split(",").some((t) => t.trim() === object.etag || t.trim() === "*")) {
    return reply.code(304).send();
  }
  const range = parseRange(request.headers.range, object.size);
  if (range === "unsatisfiable") {
    return reply.code(416).header("Content-Range", `bytes */${object.size}`).send();
  }
  const got = await storage.get(key, range ?? undefined);
  if (!got) throw notFound("File not found");
  if (range) {
    reply
      .code(206)
      .header("Content-Range", `bytes ${range.start}-${range.end}/${object.size}`)
      .header("Content-Length", range.end - range.start + 1);
  } else {
    reply.header("Content-Length", object.size);
  }
  return reply.send(got.body);
}
