/**
 * Precompressed copies of the build's text assets (vite.config.ts; bench/floor-app's build too).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

/** Text assets worth precompressing, and the size below which it saves nothing. */
const PRECOMPRESS = /\.(js|mjs|css|svg|json|wasm|txt)$/;
const PRECOMPRESS_MIN_BYTES = 1024;

/**
 * Writes `x.br` and `x.gz` beside each text asset under `assets/` (hashed names, so they never
 * go stale). The server sends them as they are by the client's Accept-Encoding (@fastify/static
 * `preCompressed`): maximum effort once at build instead of a fast, worse one per request.
 */
export function precompressAssets(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  let assetsDir = "";
  return {
    name: "atelier-precompress",
    apply: "build",
    configResolved(config) {
      assetsDir = path.resolve(config.root, config.build.outDir, config.build.assetsDir);
    },
    async writeBundle() {
      const names = (await readdir(assetsDir)).filter((name) => PRECOMPRESS.test(name));
      for (const name of names) {
        const file = path.join(assetsDir, name);
        const source = await readFile(file);
        if (source.length < PRECOMPRESS_MIN_BYTES) continue;
        const [br, gzipped] = await Promise.all([
          brotli(source, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
          gz(source, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        // A compressed copy no smaller than the original is left out: the original is sent.
        if (br.length < source.length) await writeFile(`${file}.br`, br);
        if (gzipped.length < source.length) await writeFile(`${file}.gz`, gzipped);
      }
    },
  };
}
