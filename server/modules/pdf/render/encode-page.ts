/** One rendered page, as raw pixels, to WebP images at each requested width. */
import sharp from "sharp";
import type { PageImages } from "./types";
import { WEBP_OPTIONS } from "./widths";

export interface RawPage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** Widths sorted from largest, without duplicates; throws on a width that is not a positive integer. */
export function normaliseWidths(widths: readonly number[]): number[] {
  if (widths.length === 0) throw new RangeError("No width to render at");
  for (const width of widths) {
    if (!Number.isInteger(width) || width < 1 || width > 10_000) throw new RangeError(`Bad width: ${width}`);
  }
  return [...new Set(widths)].sort((a, b) => b - a);
}

/**
 * Encodes the page (rendered at the largest width) as WebP at every width, scaling down with
 * sharp: measured faster than asking the renderer for each width, and the scaled-down images
 * are smoother.
 */
export async function encodePage(page: RawPage, widths: readonly number[]): Promise<PageImages> {
  const input = sharp(page.data, {
    raw: { width: page.width, height: page.height, channels: page.channels },
  });
  const encoded = await Promise.all(
    widths.map(async (width) => {
      let image = input.clone();
      if (page.channels === 4) image = image.removeAlpha();
      if (width !== page.width) image = image.resize({ width });
      return [width, await image.webp(WEBP_OPTIONS).toBuffer()] as const;
    }),
  );
  return new Map(encoded);
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
