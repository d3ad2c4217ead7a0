/**
 * What the server needs to know of the built client (CLIENT_DIR) to write its CSP: the HTML
 * pages with the sha256 hashes of their inline scripts, and the external origins the bundle
 * talks to (written by the build, see `cspSources` in vite.config.ts). Both are read once and
 * read again only when the file changes on disk (a rebuild under a running server).
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/** A built HTML page and the CSP sources of its inline scripts. */
export interface BuiltPage {
  html: Buffer;
  /** `'sha256-…'`, one per inline `<script>` (none for Vite's own output today). */
  scriptHashes: string[];
}

/** External origins the built bundle uses, from its `VITE_*_BASE` settings. */
export interface BuildSources {
  /** API, CMS, CRM, forms, DAM and socket origins (socket ones as ws:/wss: too). */
  connect: string[];
  /** The asset base's origin. */
  img: string[];
}

/** The file the build writes beside index.html. */
export const BUILD_SOURCES_FILE = "csp-sources.json";

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/**
 * The CSP hash sources of the inline scripts of an HTML text.
 *
 * @example
 * inlineScriptHashes('<script>go()</script><script src="/a.js"></script>') // ["'sha256-…'"] (one)
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes, body] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes)) continue;
    hashes.push(`'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`);
  }
  return [...new Set(hashes)];
}

function cachedByMtime<T>(read: (file: string) => T) {
  const cache = new Map<string, { stamp: string; value: T }>();
  return (file: string): T | null => {
    let stamp: string;
    try {
      const stat = statSync(file);
      stamp = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      cache.delete(file);
      return null;
    }
    const hit = cache.get(file);
    if (hit?.stamp === stamp) return hit.value;
    const value = read(file);
    cache.set(file, { stamp, value });
    return value;
  };
}

/** A built page, or null when it is not built. */
export const builtPage = cachedByMtime((file): BuiltPage => {
  const html = readFileSync(file);
  return { html, scriptHashes: inlineScriptHashes(html.toString("utf8")) };
});

const CSP_ORIGIN = /^(https?|wss?):\/\/[a-z0-9.-]+(:\d{1,5})?$/i;

const readSources = cachedByMtime((file): BuildSources => {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<BuildSources>;
    // The file lands in a header: keep only plain origins.
    const origins = (list: unknown) =>
      Array.isArray(list) ? list.filter((v): v is string => typeof v === "string" && CSP_ORIGIN.test(v)) : [];
    return { connect: origins(parsed.connect), img: origins(parsed.img) };
  } catch {
    return { connect: [], img: [] };
  }
});

/** The build's external origins; none when the client is not built or uses one origin. */
export function buildSources(clientDir: string): BuildSources {
  return readSources(path.join(clientDir, BUILD_SOURCES_FILE)) ?? { connect: [], img: [] };
}
