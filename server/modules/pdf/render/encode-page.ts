/** A rendered page to images at each requested spec (width and format). */
import sharp, { type Sharp } from "sharp";
import type { PageImageSpec, PageImages } from "./types";
import { JPEG_QUALITY, WEBP_OPTIONS } from "./widths";

export interface RawPage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** Specs sorted from largest, one per width; throws on a width that is not a positive integer. */
export function normaliseSpecs(specs: readonly PageImageSpec[]): PageImageSpec[] {
  if (specs.length === 0) throw new RangeError("No width to render at");
  const byWidth = new Map<number, PageImageSpec>();
  for (const spec of specs) {
    const { width, format } = spec;
    if (!Number.isInteger(width) || width < 1 || width > 10_000) throw new RangeError(`Bad width: ${width}`);
    if (format !== "jpeg" && format !== "webp") throw new RangeError(`Bad format: ${String(format)}`);
    if (!byWidth.has(width)) byWidth.set(width, { width, format });
  }
  return [...byWidth.values()].sort((a, b) => b.width - a.width);
}

/**
 * A JPEG's width from its frame header (SOF0–SOF15 but DHT, JPG and DAC), or undefined: read
 * by hand because asking sharp costs more than the header walk, on every page.
 */
export function jpegWidth(jpeg: Buffer): number | undefined {
  let at = 2;
  while (at + 9 < jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return jpeg.readUInt16BE(at + 7);
    }
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  return undefined;
}

const encode = (image: Sharp, format: PageImageSpec["format"]) =>
  format === "jpeg" ? image.jpeg({ quality: JPEG_QUALITY }).toBuffer() : image.webp(WEBP_OPTIONS).toBuffer();

/** Encodes raw pixels (rendered at the largest spec's width) at every spec, scaling down with sharp. */
export async function encodePage(page: RawPage, specs: readonly PageImageSpec[]): Promise<PageImages> {
  let input = sharp(page.data, { raw: { width: page.width, height: page.height, channels: page.channels } });
  if (page.channels === 4) input = input.removeAlpha();
  const encoded = await Promise.all(
    specs.map(async ({ width, format }) => {
      const image = width === page.width ? input.clone() : input.clone().resize({ width });
      return [width, await encode(image, format)] as const;
    }),
  );
  return new Map(encoded);
}

/**
 * The images of a page whose largest spec the rasteriser encoded itself (pdftoppm's JPEG):
 * kept as it is, and the smaller ones scaled from it. Decoding a JPEG for a quarter of its
 * width shrinks while it decodes, so a thumbnail costs a few milliseconds, not a second
 * rasterisation.
 */
export async function derivePage(largest: Buffer, specs: readonly PageImageSpec[]): Promise<PageImages> {
  const [first, ...rest] = specs;
  // pdftoppm's -scale-to-x sizes a page turned a quarter by its unturned width: scale it to fit.
  const width = jpegWidth(largest) ?? (await sharp(largest).metadata()).width;
  const kept =
    width === first.width
      ? largest
      : await encode(sharp(largest).resize({ width: first.width }), first.format);
  const images: PageImages = new Map([[first.width, kept]]);
  const derived = await Promise.all(
    rest.map(
      async ({ width, format }) => [width, await encode(sharp(largest).resize({ width }), format)] as const,
    ),
  );
  for (const [width, data] of derived) images.set(width, data);
  return images;
}

/** Reads the binary PPM (P6) pdftoppm writes: a text header, then RGB bytes. */
export function parsePpm(file: Buffer): RawPage {
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(file.subarray(0, 64).toString("latin1"));
  if (header?.[3] !== "255") throw new Error("Not an 8-bit binary PPM");
  const width = Number(header[1]);
  const height = Number(header[2]);
  const data = file.subarray(header[0].length);
  if (data.length < width * height * 3) throw new Error("Truncated PPM");
  return { data, width, height, channels: 3 };
}
