/**
 * PDF renderers for catalogue processing: page sizes, WebP page images at several widths, and
 * words with their boxes. `chooseRenderer()` picks poppler when installed, else pdf.js.
 */
export { derivePage, encodePage, normaliseSpecs } from "./encode-page";
export { createNativeRenderer, type NativeRendererOptions, popplerAvailable } from "./native-renderer";
export { normalisePages, type PageRange, planRanges } from "./pages";
export { MAX_PDF_PAGES, PDF_ERROR_MESSAGES, PdfError, type PdfErrorCode } from "./pdf-error";
export { createPdfjsRenderer, type PdfjsRendererOptions, pdfjsAvailable } from "./pdfjs-renderer";
export { chooseRenderer, RENDERERS, type RendererEntry } from "./registry";
export type {
  PageImageSpec,
  PageImages,
  PageText,
  PageWord,
  PdfInfo,
  PdfRenderer,
  RendererName,
} from "./types";
export {
  JPEG_QUALITY,
  PAGE_FORMATS,
  PAGE_WIDTHS,
  type PageWidthName,
  PROCESSED_SIZES,
  specOf,
  WEBP_OPTIONS,
} from "./widths";
