/**
 * The PDF renderers, best first. `chooseRenderer()` takes the first one that works on this
 * host, unless `PDF_RENDERER` names one. A new renderer is one entry here.
 */
import { createNativeRenderer, popplerAvailable } from "./native-renderer";
import { createPdfjsRenderer, pdfjsAvailable } from "./pdfjs-renderer";
import type { PdfRenderer, RendererName } from "./types";

export interface RendererEntry {
  /** What it needs, for the error when it is forced but missing. */
  needs: string;
  available(): Promise<boolean> | boolean;
  create(): PdfRenderer;
}

/** In order of preference: poppler renders ~2× faster than pdf.js and its text boxes are exact. */
export const RENDERERS: Record<RendererName, RendererEntry> = {
  native: {
    needs: "poppler's pdfinfo, pdftoppm and pdftotext on PATH (Debian: apt-get install poppler-utils)",
    available: () => popplerAvailable(),
    create: () => createNativeRenderer(),
  },
  pdfjs: {
    needs: "the npm packages pdfjs-dist and @napi-rs/canvas (with its binary for this platform)",
    available: () => pdfjsAvailable(),
    create: () => createPdfjsRenderer(),
  },
};

const isRendererName = (name: string): name is RendererName => Object.hasOwn(RENDERERS, name);

/**
 * The renderer to use here: `PDF_RENDERER` (native|pdfjs) if set, else the first available.
 * Throws when the forced one, or every one, is unavailable.
 *
 * @example
 * const renderer = await chooseRenderer();
 * app.log.info(`PDF renderer: ${renderer.name}`);
 */
export async function chooseRenderer(env: NodeJS.ProcessEnv = process.env): Promise<PdfRenderer> {
  const forced = env.PDF_RENDERER?.trim();
  if (forced) {
    if (!isRendererName(forced)) {
      throw new Error(
        `PDF_RENDERER=${forced} is not a renderer; use one of: ${Object.keys(RENDERERS).join(", ")}`,
      );
    }
    const entry = RENDERERS[forced];
    if (!(await entry.available())) throw new Error(`PDF_RENDERER=${forced} needs ${entry.needs}`);
    return entry.create();
  }
  for (const entry of Object.values(RENDERERS)) {
    if (await entry.available()) return entry.create();
  }
  const needs = Object.entries(RENDERERS).map(([name, entry]) => `${name}: ${entry.needs}`);
  throw new Error(`No PDF renderer can run here. ${needs.join("; ")}`);
}
