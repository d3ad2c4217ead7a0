/**
 * The SPA reads the same definition files as the server, but cannot list a folder: each
 * finder of resources/discovery/ that reads the disk (`resource-files.ts`) has a twin that
 * globs the same files at build time (`resource-files.browser.ts`). This plugin resolves
 * imports of the first to the second, so `resources/index.ts` stays the one import for both
 * sides and no `node:fs` reaches the bundle.
 */
import { existsSync } from "node:fs";
import type { Plugin } from "vite";

/** A finder that reads the disk: `resources/discovery/<what>-files.ts`. */
const DISK_FINDER = /[\\/]resources[\\/]discovery[\\/][\w-]+-files\.ts$/;

/** The browser twin of a disk finder's path, or null when `file` is not one. */
export function browserTwinOf(file: string): string | null {
  return DISK_FINDER.test(file) ? file.replace(/\.ts$/, ".browser.ts") : null;
}

export function browserFinders(): Plugin {
  return {
    name: "atelier-browser-finders",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (!source.endsWith("-files") && !source.endsWith("-files.ts")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const twin = resolved && browserTwinOf(resolved.id);
      if (!twin) return null;
      if (!existsSync(twin)) this.error(`${resolved.id} reads the disk and has no ${twin} for the browser`);
      return twin;
    },
  };
}
