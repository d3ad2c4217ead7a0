/**
 * One worker thread holding one open PDF (`pdfjs-worker.ts`). Each request must be answered
 * within `idleMs` or the thread is terminated: pdf.js is JavaScript, so a PDF that sends it
 * into a loop can only be stopped by killing its thread.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { PdfError, type PdfErrorCode } from "./pdf-error";
import type { PdfjsReply, PdfjsRequest } from "./pdfjs-protocol";

const require = createRequire(import.meta.url);
const moduleUrl = (specifier: string) => pathToFileURL(require.resolve(specifier)).href;
/** tsx's ESM API (`require.resolve` would give its CommonJS twin, which cannot register hooks here). */
function tsxEsmApiUrl(): string {
  const manifest = require.resolve("tsx/package.json");
  const entry = (require(manifest) as { exports: Record<string, { import: { default: string } }> }).exports[
    "./esm/api"
  ];
  return pathToFileURL(path.join(path.dirname(manifest), entry.import.default)).href;
}
const WORKER_URL = new URL(
  import.meta.url.endsWith(".ts") ? "./pdfjs-worker.ts" : "./pdfjs-worker.js",
  import.meta.url,
).href;

/**
 * Workers do not inherit tsx's loader in Node 20, so a TypeScript worker registers it itself
 * (tsx is a dependency: the server runs on it); a compiled one is imported as is. pdf.js is
 * imported first, by Node alone: through tsx's hooks its 3 MB of JavaScript took ~1.5 s more
 * to load, and once loaded tsx finds it in the module cache.
 */
function bootstrap(): string {
  if (!WORKER_URL.endsWith(".ts")) return `import(${JSON.stringify(WORKER_URL)});`;
  const preload = ["pdfjs-dist/legacy/build/pdf.mjs", "pdfjs-dist/legacy/build/pdf.worker.mjs"].map(
    moduleUrl,
  );
  return [
    `Promise.all(${JSON.stringify(preload)}.map((url) => import(url)))`,
    `.then(() => import(${JSON.stringify(tsxEsmApiUrl())}))`,
    `.then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL)}); });`,
  ].join("");
}

/** A request before the thread numbers it (Omit over each member of the union). */
type Request = PdfjsRequest extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;

function replyError(error: Extract<PdfjsReply, { ok: false }>["error"]): Error {
  if (error.name === "PdfError" && error.code) return new PdfError(error.code as PdfErrorCode, error.detail);
  if (error.name === "RangeError") return new RangeError(error.message);
  return Object.assign(new Error(error.message), { name: error.name });
}

export class PdfjsThread {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: unknown) => void }
  >();
  private nextId = 1;
  private failure: unknown;

  constructor(
    file: string,
    private readonly idleMs: number,
  ) {
    // The resolved path, so the worker does not depend on our working directory.
    this.worker = new Worker(bootstrap(), { eval: true, workerData: { file: path.resolve(file) } });
    this.worker.on("message", (reply: PdfjsReply) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply.result);
      else waiter?.reject(replyError(reply.error));
    });
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", (code) => this.fail(new Error(`pdf.js worker exited with code ${code}`)));
  }

  /** Sends a request; rejects with PdfError "timeout" if it is not answered in time. */
  call<T>(request: Request): Promise<T> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(
          new PdfError(
            "timeout",
            `pdf.js spent over ${Math.round(this.idleMs / 1000)} s on one ${request.op}`,
          ),
        );
      }, this.idleMs);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.worker.postMessage({ ...request, id });
    });
  }

  /** Ends the thread; requests still waiting reject with `reason`. */
  close(reason: unknown = new Error("pdf.js worker closed")): Promise<void> {
    this.fail(reason);
    return this.worker.terminate().then(() => undefined);
  }

  private fail(reason: unknown): void {
    this.failure ??= reason;
    for (const waiter of this.pending.values()) waiter.reject(this.failure);
    this.pending.clear();
    void this.worker.terminate();
  }
}
