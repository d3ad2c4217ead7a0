/** The arithmetic of a resumable upload: which chunks are missing, and how much is sent. */
import type { PdfUploadState } from "../../../schemas/pdf-library";

type Shape = Pick<PdfUploadState, "size" | "chunkSize">;

export const chunkCount = (u: Shape) => Math.ceil(u.size / u.chunkSize);

/** Bytes of chunk `index` (the last one is shorter). */
export const chunkBytes = (u: Shape, index: number) =>
  Math.max(0, Math.min(u.chunkSize, u.size - index * u.chunkSize));

/**
 * The chunks still to send, in order.
 *
 * @example
 * missingChunks({ size: 25, chunkSize: 10, received: [1] }); // [0, 2]
 */
export function missingChunks(u: Shape & Pick<PdfUploadState, "received">): number[] {
  const have = new Set(u.received);
  return Array.from({ length: chunkCount(u) }, (_, i) => i).filter((i) => !have.has(i));
}

/** Bytes the server already has. */
export function uploadedBytes(u: Shape, received: Iterable<number>): number {
  let bytes = 0;
  for (const i of new Set(received)) bytes += chunkBytes(u, i);
  return bytes;
}
