/**
 * A PDF catalogue of the PDF library (spec §3 pdf slice: pdfID, pdfstatus, pdflistStatus).
 * Created by uploading its file (server/modules/pdf), so only the name, the slug of its
 * public page and `pdfstatus` (published) are written through the API; the processing job
 * fills the rest.
 */
import { auditProperties, type EntitySchema } from "./contract";

/** Where a catalogue is in its life: uploaded, being processed, ready, or failed. */
export const PDF_LIST_STATUSES = ["queued", "processing", "ready", "error"] as const;
export type PdfListStatus = (typeof PDF_LIST_STATUSES)[number];

export const pdfSchema = {
  $id: "pdf",
  title: "PDF",
  type: "object",
  additionalProperties: false,
  "x-table": "pdfs",
  "x-label": "name",
  // Spec §4: the list shows published catalogues (pdfstatus true) first.
  "x-defaultSort": "-pdfstatus,-created_at",
  "x-list": ["name", "pdfstatus", "pdflist_status", "page_count", "file_size", "updated_at"],
  "x-searchable": ["name", "original_name", "slug"],
  "x-filterable": [
    "name",
    "pdfstatus",
    "pdflist_status",
    "page_count",
    "file_size",
    "created_at",
    "updated_at",
  ],
  "x-unique": [["slug"]],
  required: ["name"],
  properties: {
    ...auditProperties,
    name: { type: "string", title: "Name", minLength: 1, maxLength: 200 },
    slug: {
      type: "string",
      title: "Public address",
      description: "The catalogue's public page is /view/<this>",
      minLength: 3,
      maxLength: 80,
      pattern: "^[a-z0-9]+(-[a-z0-9]+)*$",
      "x-patternMessage":
        "may only contain lower-case letters and digits, in words joined by single dashes (autumn-2024)",
    },
    pdfstatus: { type: "boolean", title: "Published", default: false },
    pdflist_status: {
      type: "string",
      title: "Processing",
      enum: PDF_LIST_STATUSES,
      "x-enumLabels": ["Queued", "Processing", "Ready", "Error"],
      readOnly: true,
    },
    processing_text: { type: "string", title: "Progress", maxLength: 200, readOnly: true },
    progress: { type: "integer", title: "Progress %", minimum: 0, maximum: 100, readOnly: true },
    error_message: { type: "string", title: "Error", maxLength: 1000, readOnly: true },
    /** What the PDF tool itself said when processing failed (shown collapsed under the message). */
    error_detail: { type: "string", title: "Error detail", maxLength: 4000, readOnly: true },
    page_count: { type: "integer", title: "Pages", minimum: 0, maximum: 100000, readOnly: true },
    file_size: { type: "integer", title: "Size (bytes)", minimum: 0, maximum: 2147483647, readOnly: true },
    original_name: { type: "string", title: "File name", maxLength: 255, readOnly: true },
    /** Where the PDF itself is kept (storage key; its URL is file_url). */
    file_key: { type: "string", title: "Storage key", maxLength: 500, readOnly: true },
    file_url: { type: "string", title: "File", maxLength: 2000, readOnly: true },
    thumbnail_url: { type: "string", title: "Cover", maxLength: 2000, readOnly: true },
    /** Bumped by each new file: page images of a version have keys of their own. */
    version: { type: "integer", title: "Version", minimum: 1, maximum: 2147483647, readOnly: true },
    processed_at: { type: "string", format: "date-time", title: "Processed", readOnly: true },
  },
} as const satisfies EntitySchema;
