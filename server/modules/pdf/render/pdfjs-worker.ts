/**
 * Entry of a pdfjs worker thread: opens `workerData.file` once, then answers one request at
 * a time. Pixels go back as raw RGBA; the main thread encodes them (sharp runs off-thread).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { openPdf, pageText, pdfInfo, pdfjsError, renderPage } from "./pdfjs-document";
import type { PdfjsReply, PdfjsRequest } from "./pdfjs-protocol";

const port = parentPort!;
const opened = openPdf((workerData as { file: string }).file);
// Rejections are answered per request, below; this keeps an early one from being "unhandled".
opened.catch(() => {});

const HANDLERS: {
  [Op in PdfjsRequest["op"]]: (
    doc: PDFDocumentProxy,
    request: Extract<PdfjsRequest, { op: Op }>,
  ) => Promise<unknown>;
} = {
  info: (doc) => pdfInfo(doc),
  render: async (doc, { page, width }) => renderPage(await doc.getPage(page), width),
  text: async (doc, { page }) => pageText(await doc.getPage(page)),
};

port.on("message", async (request: PdfjsRequest) => {
  let reply: PdfjsReply;
  try {
    const doc = await opened;
    if (request.page !== undefined && (request.page < 1 || request.page > doc.numPages)) {
      throw new RangeError(`Not a page of this PDF: ${request.page}`);
    }
    const handler = HANDLERS[request.op] as (
      doc: PDFDocumentProxy,
      request: PdfjsRequest,
    ) => Promise<unknown>;
    reply = { id: request.id, ok: true, result: await handler(doc, request) };
  } catch (caught) {
    const error = pdfjsError(caught) as Error & { code?: string; detail?: string };
    reply = {
      id: request.id,
      ok: false,
      error: { name: error.name, message: error.message, code: error.code, detail: error.detail },
    };
  }
  const pixels =
    reply.ok && request.op === "render" ? (reply.result as { data: Uint8ClampedArray }).data : undefined;
  port.postMessage(reply, pixels ? [pixels.buffer as ArrayBuffer] : []);
});
