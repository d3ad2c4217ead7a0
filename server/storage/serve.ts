/**
 * The assets service (`/assets/<key>`): stored files, public by unguessable, never reused
 * keys, with ETag/304, single byte ranges (206/416) and year-long immutable caching; and
 * image renditions (`?w=320&format=webp`) made with sharp on first request, kept in storage
 * beside the original and served the same way.
 *
 * Types a browser could run (SVG, anything not a raster image, PDF or media) are served only
 * as attachments, under a CSP sandbox.
 */
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import sharp from "sharp";
import { RENDITION_FORMATS, RENDITION_WIDTHS, THUMBNAIL_WIDTH } from "../../schemas/dam";
import { PUBLIC } from "../auth/access";
import type { AppContext } from "../context";
import { badRequest, HttpError, notFound } from "../http/errors";
import { assertKey, type ByteRange, type StorageDriver, type StoredObject } from "./storage";

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
const RASTER = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"]);
/** Types sharp turns into renditions (SVG is rasterised). */
export const RENDERABLE = new Set([...RASTER, "image/svg+xml"]);

type Format = (typeof RENDITION_FORMATS)[number];
const MIME_OF: Record<Format, string> = { webp: "image/webp", avif: "image/avif", jpeg: "image/jpeg" };

/** The URLs of a stored file: the original and, for images, a thumbnail rendition. */
export function assetUrls(key: string, mime: string): { url: string; thumbnailUrl: string | null } {
  const url = `${ASSETS_PREFIX}/${key}`;
  return { url, thumbnailUrl: RENDERABLE.has(mime) ? `${url}?w=${THUMBNAIL_WIDTH}&format=webp` : null };
}

/** Where a rendition of `key` is kept. */
export const renditionKey = (key: string, width: number, format: Format) =>
  `renditions/${key}/w${width}.${format === "jpeg" ? "jpg" : format}`;

/** Every rendition key a stored file may have (to delete them with it). */
export function renditionKeys(key: string): string[] {
  return RENDITION_WIDTHS.flatMap((w) => RENDITION_FORMATS.map((f) => renditionKey(key, w, f)));
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
  format?: Format;
}

export async function assetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const inFlight = new Map<string, Promise<void>>();

  /** Makes a rendition once, however many requests ask for it at the same time. */
  const makeRendition = (original: StoredObject, key: string, width: number, format: Format) => {
    let pending = inFlight.get(key);
    if (!pending) {
      pending = render(ctx.storage, original, key, width, format, ctx.config.imageMaxPixels).finally(() =>
        inFlight.delete(key),
      );
      inFlight.set(key, pending);
    }
    return pending;
  };

  app.get<{ Params: { "*": string }; Querystring: RenditionQuery }>(
    `${ASSETS_PREFIX}/*`,
    {
      config: { access: PUBLIC },
      // Stored bytes as they are: ranges and ETags describe them (server/http/compression.ts).
      compress: false,
      schema: {
        tags: ["assets"],
        summary: "A stored file, or an image rendition of it (?w=&format=)",
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
      if (w === undefined && format === undefined) return send(ctx.storage, key, request, reply);

      const original = await ctx.storage.head(key);
      if (!original) throw notFound("File not found");
      if (!RENDERABLE.has(original.contentType)) {
        throw badRequest("Renditions are made of images only", [
          { field: "w", message: "is for images only" },
        ]);
      }
      const width = w ?? THUMBNAIL_WIDTH;
      const fmt = format ?? "webp";
      const target = renditionKey(key, width, fmt);
      if (!(await ctx.storage.head(target))) await makeRendition(original, target, width, fmt);
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

async function render(
  storage: StorageDriver,
  original: StoredObject,
  target: string,
  width: number,
  format: Format,
  /** IMAGE_MAX_PIXELS: uploads past it are refused; this guards files stored before the limit. */
  maxPixels: number,
) {
  const source = await storage.get(original.key);
  if (!source) throw notFound("File not found");
  const transformer = sharp({ animated: false, limitInputPixels: maxPixels })
    .rotate() // honour EXIF orientation
    .resize({ width, withoutEnlargement: true })
    .toFormat(format, format === "avif" ? { quality: 55, effort: 2 } : { quality: 80 });
  let sourceFailed = false;
  source.body.on("error", (error) => {
    sourceFailed = true;
    transformer.destroy(error);
  });
  source.body.pipe(transformer);
  // A rendition is small (at most RENDITION_WIDTHS' largest): made in memory first, so a
  // failure to decode is told apart from a failure to store.
  let output: Buffer;
  try {
    output = await transformer.toBuffer();
  } catch (error) {
    if (sourceFailed) throw error;
    // A damaged file, or one past the pixel limit, is the upload's fault: say so, not a 500.
    throw new HttpError(422, "This image cannot be read (it is damaged or larger than the pixel limit)", [
      { field: "w", message: "no rendition can be made of this file" },
    ]);
  }
  await storage.put(target, Readable.from([output]), MIME_OF[format]);
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
