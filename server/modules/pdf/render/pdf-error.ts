/**
 * Why a PDF could not be processed: a message in words an admin can act on, and apart from
 * it the tool's own text (poppler's stderr, pdf.js's exception), stored as a detail line that
 * the PDF library shows collapsed under the message.
 */
export type PdfErrorCode = "encrypted" | "corrupt" | "timeout" | "too-many-pages";

/** Pages a catalogue may have: past this, processing stops before rendering anything. */
export const MAX_PDF_PAGES = 2000;

export const PDF_ERROR_MESSAGES: Record<PdfErrorCode, string> = {
  corrupt: "This PDF is damaged and could not be read",
  encrypted: "This PDF is protected by a password; upload a copy without one",
  timeout: "This PDF took too long to process; it may be damaged or unusually complex",
  "too-many-pages": `This PDF has more than ${MAX_PDF_PAGES} pages; split it into smaller catalogues`,
};

/** Longest detail kept: the last lines of a tool's output are the ones that say why it gave up. */
export const PDF_ERROR_DETAIL_MAX = 2000;

export class PdfError extends Error {
  override readonly name = "PdfError";
  /** What the tool itself said (its last lines), for the detail line and the logs. */
  readonly detail?: string;
  constructor(
    readonly code: PdfErrorCode,
    detail?: string,
  ) {
    super(PDF_ERROR_MESSAGES[code]);
    const trimmed = detail?.trim();
    if (trimmed)
      this.detail =
        trimmed.length > PDF_ERROR_DETAIL_MAX ? `…${trimmed.slice(-PDF_ERROR_DETAIL_MAX)}` : trimmed;
  }
}
