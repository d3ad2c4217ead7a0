/**
 * Image renditions of stored files (`/assets/<key>?w=320&format=webp`): made with sharp on
 * first request through the on-demand piece (on-demand.ts: once across instances, kept in
 * storage beside the original, rate limited for callers without a session).
 */
import sharp from "sharp";
import { RENDITION_FORMATS, RENDITION_WIDTHS } from "../../schemas/dam";
import type { AppContext } from "../context";
import { HttpError, notFound } from "../http/errors";
import type { Made, OnDemandSource } from "./on-demand";

export type RenditionFormat = (typeof RENDITION_FORMATS)[number];

const RASTER = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"]);
/** Types sharp turns into renditions (SVG is rasterised). */
export const RENDERABLE = new Set([...RASTER, "image/svg+xml"]);

const MIME_OF: Record<RenditionFormat, string> = {
  webp: "image/webp",
  avif: "image/avif",
  jpeg: "image/jpeg",
};
const EXTENSION: Record<RenditionFormat, string> = { webp: "webp", avif: "avif", jpeg: "jpg" };
const FORMAT_OF: Record<string, RenditionFormat> = { webp: "webp", avif: "avif", jpg: "jpeg" };

/** Renditions one address without a session may have made per minute: a folder of new images. */
export const RENDITIONS_PER_MINUTE = 600;

/** Where a rendition of `key` is kept. */
export const renditionKey = (key: string, width: number, format: RenditionFormat) =>
  `renditions/${key}/w${width}.${EXTENSION[format]}`;

/** The original, width and format a rendition key names, or null when it is not one. */
export function parseRenditionKey(
  key: string,
): { original: string; width: number; format: RenditionFormat } | null {
  const match = /^renditions\/(.+)\/w(\d+)\.(webp|avif|jpg)$/.exec(key);
  if (!match) return null;
  const width = Number(match[2]);
  if (!(RENDITION_WIDTHS as readonly number[]).includes(width)) return null;
  return { original: match[1], width, format: FORMAT_OF[match[3]] };
}

/** Every rendition key a stored file may have (to delete them with it). */
export function renditionKeys(key: string): string[] {
  return RENDITION_WIDTHS.flatMap((w) => RENDITION_FORMATS.map((f) => renditionKey(key, w, f)));
}

/** The on-demand source of renditions. */
export function renditionSource(ctx: Pick<AppContext, "storage" | "config">): OnDemandSource {
  return {
    name: "rendition",
    anonymousPerMinute: RENDITIONS_PER_MINUTE,
    owns: (key) => parseRenditionKey(key) !== null,
    async make(key) {
      const parsed = parseRenditionKey(key);
      if (!parsed) throw notFound("File not found");
      return render(ctx, parsed.original, parsed.width, parsed.format);
    },
  };
}

async function render(
  ctx: Pick<AppContext, "storage" | "config">,
  original: string,
  width: number,
  format: RenditionFormat,
): Promise<Made> {
  const source = await ctx.storage.get(original);
  if (!source) throw notFound("File not found");
  if (!RENDERABLE.has(source.object.contentType)) {
    source.body.destroy();
    throw new HttpError(400, "Renditions are made of images only", [
      { field: "w", message: "is for images only" },
    ]);
  }
  // IMAGE_MAX_PIXELS: uploads past it are refused; this guards files stored before the limit.
  const transformer = sharp({ animated: false, limitInputPixels: ctx.config.imageMaxPixels })
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
  try {
    return { body: await transformer.toBuffer(), contentType: MIME_OF[format] };
  } catch (error) {
    if (sourceFailed) throw error;
    // A damaged file, or one past the pixel limit, is the upload's fault: say so, not a 500.
    throw new HttpError(422, "This image cannot be read (it is damaged or larger than the pixel limit)", [
      { field: "w", message: "no rendition can be made of this file" },
    ]);
  }
}
