/** The widths, in pixels, a catalogue page is rendered at. */
export const PAGE_WIDTHS = { thumbnail: 320, screen: 1200, zoom: 2400 } as const;

export type PageWidthName = keyof typeof PAGE_WIDTHS;

/**
 * WebP settings for page images. Encoding is most of the pipeline's CPU time (bench/pdf-render.ts).
 * Measured on the bench catalogue at 1200 px: effort 0 (libwebp method 0) at quality 75 takes
 * ~39 ms a page against ~52 ms for effort 1 at quality 80 and ~136 ms for sharp's default
 * (effort 4), for the same size (~120 KiB) and a PSNR 0.4 dB lower (36.0 dB): text stays crisp.
 */
export const WEBP_OPTIONS = { quality: 75, effort: 0 } as const;
