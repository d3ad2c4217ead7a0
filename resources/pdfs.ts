import { pdfSchema } from "../schemas/pdfs";
import type { ResourceDefinition } from "./contract";
import { MODULE_IDS } from "./modules";

/** The PDF library's catalogues: created by upload, listed and viewed by pages of their own. */
export const pdfs: ResourceDefinition = {
  name: "pdfs",
  schema: pdfSchema,
  moduleID: MODULE_IDS.pdf,
  base: "api",
  label: "PDF library",
  singular: "PDF",
  icon: "FilePdfOutlined",
  parent: "pdf",
  order: 0,
  routes: { create: false },
  pages: { list: "pdfs.library", show: "pdfs.viewer" },
  columnWidths: { pdfstatus: 110, pdflist_status: 130, page_count: 90, file_size: 110 },
  uiSchema: { "ui:order": ["name", "slug", "pdfstatus"] },
};
