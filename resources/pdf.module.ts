import type { ModuleDefinition } from "./modules";

export const pdfModule: ModuleDefinition = {
  moduleID: 1,
  key: "pdf",
  name: "PDF library",
  icon: "FilePdfOutlined",
  description: "Catalogue PDFs with shoppable hotspots",
};
