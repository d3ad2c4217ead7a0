/** The contract every PDF renderer meets; `registry.ts` lists the implementations. */

/** Page count and the size of each page in points (1/72 in), as displayed: crop box, rotation applied. */
export interface PdfInfo {
  pages: number;
  sizes: { width: number; height: number }[];
}

/** A word and its box, as fractions (0..1) of the displayed page, origin top-left. */
export interface PageWord {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A page's text in reading order (lines joined by "\n", blocks by a blank line) and its words. */
export interface PageText {
  text: string;
  words: PageWord[];
}

/** An image of a page to make: its width in pixels and its format. */
export interface PageImageSpec {
  width: number;
  format: "jpeg" | "webp";
}

/** The images of one page, encoded as their specs say, keyed by width in pixels. */
export type PageImages = Map<number, Buffer>;

export type RendererName = "native" | "pdfjs";

/**
 * Reads, renders and extracts text from a local PDF file. Pages are 1-based. Every method
 * throws a `PdfError` when the file is password-protected, unreadable, or takes too long.
 */
export interface PdfRenderer {
  readonly name: RendererName;
  info(file: string): Promise<PdfInfo>;
  /**
   * Rasterises each page once, at the largest spec, and derives the smaller ones from that
   * image; then calls `onPage` as pages finish: in no particular order, possibly several at a
   * time, and never more than a few more than the renderer has slots for. A rejected `onPage`
   * or an aborted `signal` stops the rendering and rejects with that reason.
   */
  renderPages(
    file: string,
    pages: number[],
    specs: readonly PageImageSpec[],
    onPage: (page: number, images: PageImages) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void>;
  text(file: string, pages: number[], signal?: AbortSignal): Promise<Map<number, PageText>>;
}
