/**
 * File types by content (magic bytes), never by name: the allow-list of what may be
 * uploaded, each with the extensions a file of that type may carry.
 */

export interface FileKind {
  mime: string;
  /** Extension of stored keys. */
  ext: string;
  /** Extensions an uploaded name may have for this content ("" = none). */
  extensions: readonly string[];
  /** Raster image sharp can read (renditions, width/height). */
  raster: boolean;
}

const kind = (mime: string, ext: string, extensions: string[], raster = false): FileKind => ({
  mime,
  ext,
  extensions,
  raster,
});

export const KINDS = {
  jpeg: kind("image/jpeg", "jpg", ["jpg", "jpeg", "jpe", "jfif"], true),
  png: kind("image/png", "png", ["png"], true),
  gif: kind("image/gif", "gif", ["gif"], true),
  webp: kind("image/webp", "webp", ["webp"], true),
  avif: kind("image/avif", "avif", ["avif"], true),
  svg: kind("image/svg+xml", "svg", ["svg"]),
  pdf: kind("application/pdf", "pdf", ["pdf"]),
  mp4: kind("video/mp4", "mp4", ["mp4", "m4v"]),
  webm: kind("video/webm", "webm", ["webm"]),
  mp3: kind("audio/mpeg", "mp3", ["mp3"]),
} as const satisfies Record<string, FileKind>;

/** How many leading bytes `sniff` wants (an SVG may open with a long comment or doctype). */
export const SNIFF_BYTES = 4096;

const startsWith = (buf: Buffer, bytes: number[], offset = 0) =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);
const ascii = (buf: Buffer, start: number, end: number) => buf.subarray(start, end).toString("latin1");

/** The kind of a file from its first bytes, or null when it is not on the allow-list. */
export function sniff(head: Buffer): FileKind | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return KINDS.jpeg;
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return KINDS.png;
  if (ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a") return KINDS.gif;
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return KINDS.webp;
  if (ascii(head, 0, 5) === "%PDF-") return KINDS.pdf;
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return KINDS.webm;
  if (ascii(head, 4, 8) === "ftyp") {
    const brand = ascii(head, 8, 12);
    if (brand === "avif" || brand === "avis") return KINDS.avif;
    if (["isom", "iso2", "mp41", "mp42", "M4V ", "avc1", "dash", "mmp4", "iso5", "iso6"].includes(brand)) {
      return KINDS.mp4;
    }
    return null;
  }
  if (ascii(head, 0, 3) === "ID3") return KINDS.mp3;
  // An MPEG audio frame: 11 sync bits, layer III.
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe6) === 0xe2) return KINDS.mp3;
  if (isSvg(head)) return KINDS.svg;
  return null;
}

/** Text that opens (after a BOM, white space, an XML declaration, comments, a doctype) with `<svg`. */
function isSvg(head: Buffer): boolean {
  let text = head.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // Binary data is not SVG.
  for (const c of text.slice(0, 512)) {
    const code = c.charCodeAt(0);
    if (code < 9 || (code > 13 && code < 32)) return false;
  }
  const prolog =
    /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>\s*)*<svg[\s>]/i;
  return prolog.test(text);
}

/** The extension of a file name, lower case, "" when none. */
export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/** True when a name's extension suits its content (a name without one is accepted). */
export function extensionMatches(name: string, kind: FileKind): boolean {
  const ext = extensionOf(name);
  return ext === "" || kind.extensions.includes(ext);
}

/** The allowed types, for messages. */
export const ALLOWED_TYPES = "JPEG, PNG, GIF, WebP, AVIF, SVG, PDF, MP4, WebM, MP3";
