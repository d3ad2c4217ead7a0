/** The sizes a catalogue page is rendered at: width in pixels and image format. */
import type { PageImageSpec } from "./types";

export const PAGE_WIDTHS = { thumbnail: 320, screen: 1200, zoom: 2400 } as const;

export type PageWidthName = keyof typeof PAGE_WIDTHS;

/**
 * Each size's format. Processing is what an uploader waits for, and the whole job must stay
 * within single-thread `pdftoppm -jpeg` (bench/pdf-render.ts), so both sizes it makes are JPEG:
 * the screen size as the rasteriser wrote it (re-encoding to WebP, even at effort 0, costs as
 * much CPU as rasterising the page), and the thumbnail scaled from it (JPEG ~11 ms a page
 * against ~16 ms for WebP effort 0, for ~21 KiB against ~17). The zoom size is made on demand,
 * once, and served many times, so its smaller WebP bytes win.
 */
export const PAGE_FORMATS = { thumbnail: "jpeg", screen: "jpeg", zoom: "webp" } as const satisfies Record<
  PageWidthName,
  PageImageSpec["format"]
>;

/** The sizes processing makes; the zoom size is made on first request (zoom-pages.ts). */
export const PROCESSED_SIZES: readonly PageWidthName[] = ["thumbnail", "screen"];

export const specOf = (size: PageWidthName): PageImageSpec => ({
  width: PAGE_WIDTHS[size],
  format: PAGE_FORMATS[size],
});

/**
 * WebP settings for page images. Measured on the bench catalogue at 1200 px: effort 0 (libwebp
 * method 0) at quality 75 takes ~39 ms a page against ~52 ms for effort 1 at quality 80 and
 * ~136 ms for sharp's default (effort 4), for the same size (~120 KiB) and a PSNR 0.4 dB lower
 * (36.0 dB): text stays crisp.
 */
export const WEBP_OPTIONS = { quality: 75, effort: 0 } as const;

/**
 * JPEG quality (pdftoppm's `-jpegopt`, sharp's `jpeg()`): libjpeg's default, as the reference
 * `pdftoppm -jpeg` writes it (~200 KiB a bench page at 1200 px). Optimised Huffman tables
 * would save ~5 % of the bytes for ~8 % more CPU on the path an uploader waits for.
 */
export const JPEG_QUALITY = 75;
