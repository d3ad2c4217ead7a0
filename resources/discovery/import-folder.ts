/**
 * The Node side of discovery: imports every definition file of a folder. The server (tsx),
 * scripts, benches and vitest read the definitions this way; the SPA build reads the same
 * files through `import.meta.glob` (the `*.browser.ts` finders beside this file).
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type DefinitionFiles, type DefinitionKind, definitionKindOf } from "./collect";

/**
 * The exports of each definition file of one kind in `dir` (not its subfolders), keyed by the
 * file's path relative to `root` with forward slashes, like the browser finders' keys.
 *
 * @example
 * await importFolder("/app/resources", "resource", "/app"); // { "resources/products.ts": { products }, ... }
 */
export async function importFolder(
  dir: string,
  kind: DefinitionKind,
  root: string,
): Promise<DefinitionFiles> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isFile() && definitionKindOf(e.name) === kind).map((e) => e.name);
  const files = await Promise.all(
    names.sort().map(async (name) => {
      const file = path.join(dir, name);
      const exports: Record<string, unknown> = await import(pathToFileURL(file).href);
      return [path.relative(root, file).split(path.sep).join("/"), exports] as const;
    }),
  );
  return Object.fromEntries(files);
}

/** The project root: two folders up from resources/discovery/. */
export const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));
