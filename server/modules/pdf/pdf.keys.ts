/**
 * Where the PDF library keeps its files in storage. Page image keys are derived from the
 * catalogue, its file version, the page and the size, so a re-processed file never overwrites
 * what a browser cached, a deleted catalogue's files are known without a listing, and the zoom
 * size has an address before it is made (zoom-pages.ts makes it on first request).
 */
import { PAGE_IMAGE_SIZES, type PageImageSize } from "../../../schemas/pdf-library";
import { ASSETS_PREFIX } from "../../storage/serve";
import { PAGE_FORMATS, PAGE_WIDTHS, type PageWidthName } from "./render/widths";

const EXTENSION = { jpeg: "jpg", webp: "webp" } as const;

export const CONTENT_TYPE = { jpeg: "image/jpeg", webp: "image/webp" } as const;

/** The key of a page image of one size. */
export const pageImageKey = (pdfId: string, version: number, page: number, size: PageWidthName) =>
  `pdfs/${pdfId}/v${version}/p${page}-w${PAGE_WIDTHS[size]}.${EXTENSION[PAGE_FORMATS[size]]}`;

/** Page image keys as catalogues processed before the screen size and thumbnail became JPEG wrote them. */
const legacyKey = (pdfId: string, version: number, page: number, width: number) =>
  `pdfs/${pdfId}/v${version}/p${page}-w${width}.webp`;

/** Every page image key one version of a catalogue may have (to delete them with it). */
export function pageImageKeys(pdfId: string, version: number, pageCount: number): string[] {
  const keys = new Set<string>();
  for (let page = 1; page <= pageCount; page++) {
    for (const size of Object.keys(PAGE_WIDTHS) as PageWidthName[]) {
      keys.add(pageImageKey(pdfId, version, page, size));
      keys.add(legacyKey(pdfId, version, page, PAGE_WIDTHS[size]));
    }
  }
  return [...keys];
}

const ZOOM_KEY = new RegExp(
  `^pdfs/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/v(\\d{1,9})/p(\\d{1,6})-w${PAGE_WIDTHS.zoom}\\.${EXTENSION[PAGE_FORMATS.zoom]}$`,
);

/** The catalogue, version and page a zoom image key names, or null when it is not one. */
export function parseZoomKey(key: string): { pdfId: string; version: number; page: number } | null {
  const match = ZOOM_KEY.exec(key);
  return match ? { pdfId: match[1], version: Number(match[2]), page: Number(match[3]) } : null;
}

/** A chunk of a resumable upload. */
export const uploadChunkKey = (uploadId: string, index: number) => `uploads/pdf/${uploadId}/${index}`;

/** The public URL of a stored object (the assets service). */
export const assetUrl = (key: string) => `${ASSETS_PREFIX}/${key}`;

/**
 * The storage key of a page's image of one size: processed sizes from the keys its row stores
 * by width; the zoom size from its derived key once the page is rendered (made on first request).
 */
export function imageKeyOf(
  pdfId: string,
  page: number,
  row: { version: number; images: Record<string, string> },
  size: PageImageSize,
): string | undefined {
  if (size !== "zoom") return row.images[String(PAGE_IMAGE_SIZES[size])];
  return row.images[String(PAGE_IMAGE_SIZES.screen)]
    ? pageImageKey(pdfId, row.version, page, "zoom")
    : undefined;
}

/** A page's image URLs by size name (absent while the page is not rendered yet). */
export function pageImageUrls(
  pdfId: string,
  row: { page: number; version: number; images: Record<string, string> },
): Partial<Record<PageImageSize, string>> {
  const urls: Partial<Record<PageImageSize, string>> = {};
  for (const size of Object.keys(PAGE_IMAGE_SIZES) as PageImageSize[]) {
    const key = imageKeyOf(pdfId, row.page, row, size);
    if (key) urls[size] = assetUrl(key);
  }
  return urls;
}
