/**
 * Where the PDF library keeps its files in storage. Page image keys are derived from the
 * catalogue, its file version and the page, so a re-processed file never overwrites what a
 * browser cached, and a deleted catalogue's files are known without a listing.
 */
import { PAGE_IMAGE_WIDTHS } from "../../../schemas/pdf-library";
import { ASSETS_PREFIX } from "../../storage/serve";

export const pageImageKey = (pdfId: string, version: number, page: number, width: number) =>
  `pdfs/${pdfId}/v${version}/p${page}-w${width}.webp`;

/** Every page image key of one version of a catalogue. */
export function pageImageKeys(pdfId: string, version: number, pageCount: number): string[] {
  const keys: string[] = [];
  for (let page = 1; page <= pageCount; page++)
    for (const width of PAGE_IMAGE_WIDTHS) keys.push(pageImageKey(pdfId, version, page, width));
  return keys;
}

/** A chunk of a resumable upload. */
export const uploadChunkKey = (uploadId: string, index: number) => `uploads/pdf/${uploadId}/${index}`;

/** The public URL of a stored object (the assets service). */
export const assetUrl = (key: string) => `${ASSETS_PREFIX}/${key}`;
