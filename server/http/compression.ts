/**
 * Compression of answers (issue 10): JSON and other text answers of 1 KiB or more go out as
 * brotli or gzip by the client's Accept-Encoding, with `Vary: Accept-Encoding`.
 *
 * What is left alone, and why:
 * - the SPA's hashed assets: the build precompressed them at maximum effort (server/http/spa.ts
 *   serves the `.br`/`.gz` files; an answer that already has a Content-Encoding is skipped);
 * - stored files (`/assets/*`, `compress: false` on that route): mostly compressed media, with
 *   byte ranges and ETags that describe the stored bytes;
 * - range answers (206 / Content-Range): their offsets are of the unencoded bytes;
 * - zips, CSV exports and other downloads: not a compressible type below;
 * - socket.io: served by engine.io on the raw HTTP server, never through these hooks.
 *
 * Request bodies are not decompressed: no client sends compressed bodies, and accepting them
 * would only add a way to inflate a small request past the body limit's intent.
 */
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Answers smaller than this are sent as they are: compressing them saves nothing. */
export const COMPRESS_THRESHOLD = 1024;

const COMPRESSIBLE =
  /^(application\/(json|javascript|manifest\+json|[a-z0-9.+-]+\+json)|text\/(html|css|javascript)|image\/svg\+xml)\s*(;|$)/i;

/** Registers compression for every route registered after it. */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD,
    encodings: ["br", "gzip"],
    customTypes: COMPRESSIBLE,
  });
}
