/**
 * One uploaded file (any module's), from a multipart stream to storage: its first bytes decide its type
 * (magic bytes, checked against the allow-list and against the name's extension), then the
 * whole stream is piped to storage under a generated key. Nothing is buffered but the head;
 * the first 512 KiB are also kept aside to read an image's width and height.
 */
import { Readable } from "node:stream";
import sharp from "sharp";
import { HttpError } from "../http/errors";
import { ALLOWED_TYPES, extensionMatches, type FileKind, SNIFF_BYTES, sniff } from "./sniff";
import { newKey, type StorageDriver } from "./storage";

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

/** Reads at least `n` bytes (or all there is) from an iterator; returns them and the iterator. */
async function readHead(
  iterator: AsyncIterator<Buffer>,
  n: number,
): Promise<{ head: Buffer; done: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < n) {
    const next = await iterator.next();
    if (next.done) return { head: Buffer.concat(chunks), done: true };
    chunks.push(next.value);
    length += next.value.length;
  }
  return { head: Buffer.concat(chunks), done: false };
}

/**
 * Stores one uploaded file. Throws HttpError 400 (type not allowed or not matching the
 * name) or 413 (over `maxBytes`), with nothing left in storage.
 */
export async function storeUpload(
  storage: StorageDriver,
  part: IncomingFile,
  maxBytes: number,
  allowed: (kind: FileKind) => boolean = () => true,
  /** The module's folder in storage (`dam`, `pdfs`). */
  prefix = "dam",
): Promise<StoredUpload> {
  const name = displayName(part.filename);
  const iterator = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  /** Discards the rest of a refused file, so the next part can be read. */
  const drain = async () => {
    while (!(await iterator.next()).done) {
      // nothing to keep
    }
  };
  const { head, done } = await readHead(iterator, SNIFF_BYTES);
  const kind = sniff(head);
  const refuse = async (message: string) => {
    if (!done) await drain();
    return new HttpError(400, message, [{ field: "file", message }]);
  };
  if (!kind || !allowed(kind)) {
    throw await refuse(`${name}: this type of file is not allowed (allowed: ${ALLOWED_TYPES})`);
  }
  if (!extensionMatches(name, kind)) {
    throw await refuse(`${name}: the content is ${kind.mime}, which does not match the file's extension`);
  }

  const aside: Buffer[] = [];
  let asideLength = 0;
  const keep = (chunk: Buffer) => {
    if (!kind.raster || asideLength >= DIMENSION_BYTES) return;
    aside.push(chunk);
    asideLength += chunk.length;
  };
  keep(head);
  const body = Readable.from(
    (async function* () {
      yield head;
      if (done) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        keep(next.value);
        yield next.value;
      }
    })(),
    { objectMode: false },
  );

  const key = newKey(prefix, kind.ext);
  const stored = await storage.put(key, body, kind.mime);
  if (part.file.truncated || stored.size > maxBytes) {
    await storage.delete([key]);
    const mb = Math.round(maxBytes / 1024 / 1024);
    throw new HttpError(413, `${name}: the file is larger than ${mb} MB`, [
      { field: "file", message: `is larger than ${mb} MB` },
    ]);
  }
  const { width, height } = kind.raster
    ? await rasterSize(Buffer.concat(aside))
    : kind.mime === "image/svg+xml"
      ? svgSize(head.toString("utf8"))
      : { width: null, height: null };
  return { key, kind, size: stored.size, width, height, originalName: name };
}

async function rasterSize(buf: Buffer): Promise<{ width: number | null; height: number | null }> {
  try {
    const meta = await sharp(buf, { failOn: "none" }).metadata();
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
