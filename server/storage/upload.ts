/**
 * One uploaded file (any module's), from a multipart stream to storage: its first bytes decide its type
 * (magic bytes, checked against the allow-list and against the name's extension), then the
 * whole stream is piped to storage under a generated key. Nothing is buffered but the head;
 * the first 512 KiB are also kept aside to read an image's width and height.
 *
 * An image whose header declares more pixels than `maxPixels` is refused before anything is
 * stored: decoding it (renditions) would take gigabytes of memory.
 */
import { Readable } from "node:stream";
import sharp from "sharp";
import type { Config } from "../config";
import { HttpError } from "../http/errors";
import { multipartError } from "../http/multipart";
import { declaredSize } from "./image-size";
import { ALLOWED_TYPES, extensionMatches, type FileKind, SNIFF_BYTES, sniff } from "./sniff";
import { newKey, type StorageDriver } from "./storage";

/** What one upload may be. */
export interface UploadLimits {
  /** Largest file, bytes (413 past it). */
  maxBytes: number;
  /** Most pixels (width × height) an image may declare (IMAGE_MAX_PIXELS; 400 past it). */
  maxPixels: number;
}

/** What a multipart file part gives us (busboy's stream sets `truncated` at the size limit). */
export interface IncomingFile {
  filename: string;
  file: Readable & { truncated?: boolean };
}

export interface StoredUpload {
  key: string;
  kind: FileKind;
  size: number;
  width: number | null;
  height: number | null;
  /** The original name, reduced to a display name (no folders, no control characters). */
  originalName: string;
}

const DIMENSION_BYTES = 512 * 1024;

/** The last path segment of an uploaded name, without control characters, at most 255 long. */
export function displayName(filename: string): string {
  const base = (filename.split(/[\\/]/).pop() ?? "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point.
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim();
  const safe = base === "." || base === ".." ? "" : base;
  return (safe || "file").slice(0, 255);
}

/**
 * Reads from an iterator until `chunks` hold at least `n` bytes or the stream ends; a
 * failure of the upload stream itself (a truncated multipart body) is the client's 400.
 */
async function readInto(iterator: AsyncIterator<Buffer>, chunks: Buffer[], n: number): Promise<boolean> {
  let length = chunks.reduce((sum, c) => sum + c.length, 0);
  while (length < n) {
    let next: IteratorResult<Buffer>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw multipartError(error);
    }
    if (next.done) return true;
    chunks.push(next.value);
    length += next.value.length;
  }
  return false;
}

/** The limits of the configuration. */
export const uploadLimits = (ctx: { config: Config }): UploadLimits => ({
  maxBytes: ctx.config.uploadMaxBytes,
  maxPixels: ctx.config.imageMaxPixels,
});

/** Megapixels, for messages: "100 megapixels", "0.5 megapixels". */
const megapixels = (pixels: number) => `${Number((pixels / 1_000_000).toPrecision(3))} megapixels`;

/**
 * Stores one uploaded file. Throws HttpError 400 (type not allowed or not matching the
 * name, an image past the pixel limit, a truncated upload) or 413 (over `maxBytes`), with
 * nothing left in storage.
 */
export async function storeUpload(
  storage: StorageDriver,
  part: IncomingFile,
  limits: UploadLimits,
  allowed: (kind: FileKind) => boolean = () => true,
  /** The module's folder in storage (`dam`, `pdfs`). */
  prefix = "dam",
): Promise<StoredUpload> {
  const name = displayName(part.filename);
  const iterator = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let done = await readInto(iterator, chunks, SNIFF_BYTES);
  /** Discards the rest of a refused file, so the next part can be read. */
  const refuse = async (message: string, field = "file", fieldMessage = message) => {
    if (!done) await readInto(iterator, [], Number.POSITIVE_INFINITY);
    return new HttpError(400, message, [{ field, message: fieldMessage }]);
  };
  const kind = sniff(Buffer.concat(chunks));
  if (!kind || !allowed(kind)) {
    throw await refuse(`${name}: this type of file is not allowed (allowed: ${ALLOWED_TYPES})`);
  }
  if (!extensionMatches(name, kind)) {
    throw await refuse(`${name}: the content is ${kind.mime}, which does not match the file's extension`);
  }
  const tooManyPixels = (width: number, height: number) =>
    `${name}: the image is ${width} × ${height} pixels (${megapixels(width * height)}), more than the ` +
    `limit of ${megapixels(limits.maxPixels)}`;
  if (kind.raster) {
    // The size sits in the first bytes, after metadata that may be long (a JPEG's EXIF).
    let size = declaredSize(Buffer.concat(chunks), kind);
    while (!size && !done && chunks.reduce((n, c) => n + c.length, 0) < DIMENSION_BYTES) {
      done = await readInto(iterator, chunks, chunks.reduce((n, c) => n + c.length, 0) + SNIFF_BYTES * 4);
      size = declaredSize(Buffer.concat(chunks), kind);
    }
    if (size && size.width * size.height > limits.maxPixels) {
      throw await refuse(tooManyPixels(size.width, size.height), "file", "has too many pixels");
    }
  }
  const head = Buffer.concat(chunks);

  const aside: Buffer[] = [];
  let asideLength = 0;
  const keep = (chunk: Buffer) => {
    if (!kind.raster || asideLength >= DIMENSION_BYTES) return;
    aside.push(chunk);
    asideLength += chunk.length;
  };
  keep(head);
  let streamError: Error | null = null;
  const body = Readable.from(
    (async function* () {
      yield head;
      if (done) return;
      for (;;) {
        let next: IteratorResult<Buffer>;
        try {
          next = await iterator.next();
        } catch (error) {
          streamError = multipartError(error);
          throw streamError;
        }
        if (next.done) return;
        keep(next.value);
        yield next.value;
      }
    })(),
    { objectMode: false },
  );

  const key = newKey(prefix, kind.ext);
  let stored: Awaited<ReturnType<StorageDriver["put"]>>;
  try {
    stored = await storage.put(key, body, kind.mime);
  } catch (error) {
    // The driver removes what it wrote; a broken upload is the client's, not a 500.
    throw streamError ?? error;
  }
  if (part.file.truncated || stored.size > limits.maxBytes) {
    await storage.delete([key]);
    const mb = Math.round(limits.maxBytes / 1024 / 1024);
    throw new HttpError(413, `${name}: the file is larger than ${mb} MB`, [
      { field: "file", message: `is larger than ${mb} MB` },
    ]);
  }
  const { width, height } = kind.raster
    ? await rasterSize(Buffer.concat(aside))
    : kind.mime === "image/svg+xml"
      ? svgSize(head.toString("utf8"))
      : { width: null, height: null };
  if (width && height && width * height > limits.maxPixels) {
    // A header the quick reader above could not place; sharp found it in the stored head.
    await storage.delete([key]);
    throw new HttpError(400, tooManyPixels(width, height), [
      { field: "file", message: "has too many pixels" },
    ]);
  }
  return { key, kind, size: stored.size, width, height, originalName: name };
}

async function rasterSize(buf: Buffer): Promise<{ width: number | null; height: number | null }> {
  try {
    // Reading the header decodes no pixel, so no pixel limit here (the upload checks it).
    const meta = await sharp(buf, { failOn: "none", limitInputPixels: false }).metadata();
    // EXIF orientations 5–8 swap the sides as shown.
    const swap = (meta.orientation ?? 1) >= 5;
    const width = (swap ? meta.height : meta.width) ?? null;
    const height = (swap ? meta.width : meta.height) ?? null;
    return { width, height };
  } catch {
    return { width: null, height: null };
  }
}

/** An SVG's size from its root's width/height (plain numbers or px), else its viewBox. */
export function svgSize(text: string): { width: number | null; height: number | null } {
  const root = /<svg\b[^>]*>/i.exec(text)?.[0] ?? "";
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i").exec(root)?.[1];
  const px = (v: string | undefined) => {
    const m = v ? /^\s*([\d.]+)\s*(px)?\s*$/.exec(v) : null;
    return m ? Math.round(Number(m[1])) || null : null;
  };
  let width = px(attr("width"));
  let height = px(attr("height"));
  const box = attr("viewBox")
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if ((!width || !height) && box?.length === 4 && box.every(Number.isFinite)) {
    width ??= Math.round(box[2]) || null;
    height ??= Math.round(box[3]) || null;
  }
  return { width, height };
}
