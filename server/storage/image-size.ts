/**
 * An image's width and height as its header declares them, read from the first bytes of
 * the file and never decoded: enough to refuse a "pixel bomb" (a small file declaring a
 * huge canvas, which would take gigabytes to decode) before a byte of it is stored.
 */
import type { FileKind } from "./sniff";

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The declared size of a JPEG, PNG, GIF, WebP or AVIF image from its head; null when the
 * head is too short to hold it (read more and ask again) or the header is not readable.
 *
 * @example
 * declaredSize(pngBytes, KINDS.png); // { width: 800, height: 600 }
 */
export function declaredSize(head: Buffer, kind: FileKind): ImageSize | null {
  switch (kind.ext) {
    case "png":
      return pngSize(head);
    case "gif":
      return head.length >= 10 ? { width: head.readUInt16LE(6), height: head.readUInt16LE(8) } : null;
    case "jpg":
      return jpegSize(head);
    case "webp":
      return webpSize(head);
    case "avif":
      return avifSize(head);
    default:
      return null;
  }
}

function pngSize(head: Buffer): ImageSize | null {
  if (head.length < 24 || head.toString("latin1", 12, 16) !== "IHDR") return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/** Walks the JPEG markers up to the first frame header (SOFn), which holds the size. */
function jpegSize(head: Buffer): ImageSize | null {
  let at = 2;
  while (at + 4 <= head.length) {
    if (head[at] !== 0xff) return null;
    const marker = head[at + 1];
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0-7, SOI, EOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      at += 2;
      continue;
    }
    const length = head.readUInt16BE(at + 2);
    // SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > head.length) return null;
      return { width: head.readUInt16BE(at + 7), height: head.readUInt16BE(at + 5) };
    }
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

function webpSize(head: Buffer): ImageSize | null {
  if (head.length < 30) return null;
  const chunk = head.toString("latin1", 12, 16);
  if (chunk === "VP8X") {
    return { width: head.readUIntLE(24, 3) + 1, height: head.readUIntLE(27, 3) + 1 };
  }
  if (chunk === "VP8L") {
    const bits = head.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8 ") {
    return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  }
  return null;
}

/**
 * AVIF (HEIF) keeps each image's size in an `ispe` property box; the largest one found
 * (the primary image, not a thumbnail or an alpha plane of it) is the canvas.
 */
function avifSize(head: Buffer): ImageSize | null {
  let best: ImageSize | null = null;
  for (let at = head.indexOf("ispe", 0, "latin1"); at >= 0; at = head.indexOf("ispe", at + 4, "latin1")) {
    // "ispe", then version and flags (4 bytes), then width and height.
    if (at + 16 > head.length) break;
    const size = { width: head.readUInt32BE(at + 8), height: head.readUInt32BE(at + 12) };
    if (!best || size.width * size.height > best.width * best.height) best = size;
  }
  return best;
}
