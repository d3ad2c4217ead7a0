/**
 * PDF renderers for catalogue processing: page sizes, WebP page images at several widths, and
 * words with their boxes. `chooseRenderer()` picks poppler when installed, else pdf.js.
 */
export { encodePage, normaliseWidths } from "./encode-page";
export { createNativeRenderer, type NativeRendererOptions, popplerAvailable } from "./native-renderer";
export { normalisePages, type PageRange, planRanges } from "./pages";
export { PdfError, type PdfErrorCode } from "./pdf-error";
export { createPdfjsRenderer, type PdfjsRendererOptions, pdfjsAvailable } from "./pdfjs-renderer";
export { chooseRenderer, RENDERERS, type RendererEntry } from "./registry";
export type { PageImages, PageText, PageWord, PdfInfo, PdfRenderer, RendererName } from "./types";
export { PAGE_WIDTHS, type PageWidthName, WEBP_OPTIONS } from "./widths";
