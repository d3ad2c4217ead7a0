/** Why a PDF could not be processed, in words a user can act on. */
export type PdfErrorCode = "encrypted" | "corrupt" | "timeout";

const MESSAGES: Record<PdfErrorCode, string> = {
  corrupt: "The file is damaged or is not a PDF.",
  encrypted: "The PDF is protected by a password; upload a copy without one.",
  timeout: "The PDF took too long to process; it may be damaged or unusually complex.",
};

export class PdfError extends Error {
  override readonly name = "PdfError";
  constructor(
    readonly code: PdfErrorCode,
    /** What the PDF library said, for the logs. */
    readonly detail?: string,
  ) {
    super(detail ? `${MESSAGES[code]} (${detail})` : MESSAGES[code]);
  }
}
