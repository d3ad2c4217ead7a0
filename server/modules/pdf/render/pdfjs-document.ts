/**
 * pdf.js (legacy build, for Node) on one PDF: open it, read its pages' sizes and words, and
 * draw a page on an @napi-rs/canvas canvas. Runs inside a pdfjs worker thread (see
 * `pdfjs-worker.ts`); nothing here has a timeout of its own.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { PdfError } from "./pdf-error";
import type { PageText, PageWord, PdfInfo } from "./types";

const require = createRequire(import.meta.url);
/** pdfjs-dist's folder: fonts, cmaps and wasm decoders are read from it, never fetched. */
const PDFJS_DIR = path.dirname(require.resolve("pdfjs-dist/package.json"));
const asset = (folder: string) => `${pathToFileURL(path.join(PDFJS_DIR, folder)).pathname}/`;

/** A variable, because pdfjs-dist ships no types for its worker module. */
const PDFJS_WORKER = "pdfjs-dist/legacy/build/pdf.worker.mjs";
let workerReady: Promise<void> | undefined;
/** pdf.js's "worker" runs in this thread: loaded once, by us, rather than by a relative import. */
function loadPdfjsWorker(): Promise<void> {
  workerReady ??= import(PDFJS_WORKER).then((worker: unknown) => {
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
  });
  return workerReady;
}

/** pdf.js's exceptions (they cross its internal worker by name) as PdfErrors. */
export function pdfjsError(error: unknown): unknown {
  const name = (error as { name?: string })?.name;
  const message = (error as { message?: string })?.message;
  if (name === "PasswordException") return new PdfError("encrypted", message && `pdf.js: ${message}`);
  if (name === "InvalidPDFException" || name === "FormatError" || name === "UnknownErrorException") {
    return new PdfError("corrupt", message && `pdf.js: ${message}`);
  }
  return error;
}

export async function openPdf(file: string): Promise<PDFDocumentProxy> {
  await loadPdfjsWorker();
  const data = new Uint8Array(await readFile(file));
  try {
    return await getDocument({
      data,
      standardFontDataUrl: asset("standard_fonts"),
      cMapUrl: asset("cmaps"),
      wasmUrl: asset("wasm"),
      iccUrl: asset("iccs"),
      isEvalSupported: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    throw pdfjsError(error);
  }
}

/** Displayed sizes in points: the crop box with the page's rotation applied. */
export async function pdfInfo(doc: PDFDocumentProxy): Promise<PdfInfo> {
  const sizes: PdfInfo["sizes"] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const { width, height } = (await doc.getPage(n)).getViewport({ scale: 1 });
    sizes.push({ width, height });
  }
  return { pages: doc.numPages, sizes };
}

const round = (n: number) => Math.round(n * 1e5) / 1e5;
const clamp = (n: number) => Math.min(1, Math.max(0, n));

/**
 * The page's words. pdf.js gives runs of text (a string, its origin, width and font size);
 * a run is cut at spaces and each word gets a share of the run's width by its number of
 * characters: approximate for proportional fonts, close enough to locate a word. Words on a
 * slant get the box around them.
 */
export async function pageText(page: PDFPageProxy): Promise<PageText> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const words: PageWord[] = [];
  let text = "";
  for (const item of content.items) {
    if (!("str" in item)) continue;
    text += item.str + (item.hasEOL ? "\n" : "");
    if (!item.str.trim()) continue;
    const style = content.styles[item.fontName];
    // The run in page space: from its origin along the baseline direction u for its width,
    // and across it (direction v) from the font's descent to its ascent.
    const [a, b, c, d, e, f] = item.transform as number[];
    const size = Math.hypot(c, d) || Math.hypot(a, b) || 1;
    const [ux, uy] = [a / (Math.hypot(a, b) || 1), b / (Math.hypot(a, b) || 1)];
    const [vx, vy] = [c / size, d / size];
    const across = [(style?.ascent || 0.8) * size, (style?.descent || -0.2) * size];
    const chars = item.str.length;
    for (const match of item.str.matchAll(/\S+/g)) {
      const along = [match.index / chars, (match.index + match[0].length) / chars].map((t) => t * item.width);
      // The word's four corners in the viewport (top-left origin, rotation applied), boxed.
      const corners = along.flatMap((s) =>
        across.map((t) => viewport.convertToViewportPoint(e + ux * s + vx * t, f + uy * s + vy * t)),
      );
      const xs = corners.map(([x]) => clamp(x / viewport.width));
      const ys = corners.map(([, y]) => clamp(y / viewport.height));
      const x = Math.min(...xs);
      const y = Math.min(...ys);
      words.push({
        text: match[0],
        x: round(x),
        y: round(y),
        w: round(Math.max(...xs) - x),
        h: round(Math.max(...ys) - y),
      });
    }
  }
  return { text: text.trim(), words };
}

/** Draws the page `width` pixels wide on a white canvas; returns its RGBA pixels. */
export async function renderPage(
  page: PDFPageProxy,
  width: number,
): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: width / base.width });
  const w = Math.round(viewport.width);
  const h = Math.round(viewport.height);
  const { createCanvas } = require("@napi-rs/canvas") as typeof import("@napi-rs/canvas");
  const canvas = createCanvas(w, h);
  await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
  const data = canvas.getContext("2d").getImageData(0, 0, w, h).data;
  page.cleanup();
  return { data, width: w, height: h };
}
