/**
 * The server tests' child processes (the server as a process, the run engine's crash child)
 * from one esbuild bundle per entry, built once per run by global-setup.ts, instead of
 * `node --import tsx <entry>.ts`. Under tsx every boot resolves and loads some 450 TypeScript
 * files and thousands of package files through its loader hooks: about 1.5 s of CPU a boot,
 * and a few dozen boots a run on a machine whose two cores the suite keeps busy. The bundle is
 * the same sources, compiled by the same esbuild tsx uses; the packages stay outside it, loaded
 * by Node as in production.
 *
 * Two things a bundle would change are kept as they are under tsx:
 * - `import.meta.url` is each source file's own URL, so paths beside it (the migrations
 *   folder, the PDF worker, the tool host) are the source tree's;
 * - the files the server finds on disk at start-up and imports by URL (the definitions of
 *   resources/, the migrations of server/db/migrations/) are bundled, and such an import is
 *   answered from the bundle. A URL the bundle does not hold fails loudly, naming this file.
 *
 * @example
 * const bundles = await buildChildBundles(outDir); // in global setup
 * spawn(process.execPath, [...childArgs("server/main.ts")], { cwd: ROOT });
 */
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { inject } from "vitest";
import { definitionKindOf } from "../../resources/discovery/collect";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The entries run as child processes; each gets its own bundle. */
export const CHILD_ENTRIES = ["server/main.ts", "tests/server/runs-child.ts"] as const;
export type ChildEntry = (typeof CHILD_ENTRIES)[number];

/** Folders whose files are imported by URL at run time (discovery, migrations), and which of their files. */
const IMPORTED_BY_URL: Array<{ dir: string; take: (name: string) => boolean }> = [
  { dir: "resources", take: (name) => definitionKindOf(name) !== null },
  { dir: "server/db/migrations", take: (name) => name.endsWith(".ts") && !name.endsWith(".test.ts") },
];

/** The site of an import by URL in the sources: `import(pathToFileURL(...).href)`. */
const IMPORT_BY_URL = /\bimport\(\s*pathToFileURL\(/;
const REGISTRY = "atelier:files-imported-by-url";

/** The registry module: each URL the server may import at run time → that file, from the bundle. */
function registrySource(): string {
  const entries = IMPORTED_BY_URL.flatMap(({ dir, take }) =>
    readdirSync(path.join(ROOT, dir))
      .filter(take)
      .sort()
      .map((name) => {
        const file = path.join(ROOT, dir, name);
        return `  ${JSON.stringify(pathToFileURL(file).href)}: () => import(${JSON.stringify(file)}),`;
      }),
  );
  return `const files = {\n${entries.join("\n")}\n};
export function importBundled(url) {
  const load = files[url];
  if (!load) throw new Error(url + " is not in the child bundle: list its folder in tests/server/child-bundle.ts");
  return load();
}\n`;
}

const keepSourcePlaces: Plugin = {
  name: "atelier-keep-source-places",
  setup(b) {
    b.onResolve({ filter: new RegExp(`^${REGISTRY}$`) }, () => ({ path: REGISTRY, namespace: REGISTRY }));
    b.onLoad({ filter: /.*/, namespace: REGISTRY }, () => ({
      contents: registrySource(),
      resolveDir: ROOT,
      loader: "js",
    }));
    b.onLoad({ filter: /\.[cm]?tsx?$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      let text = await readFile(args.path, "utf8");
      const byUrl = IMPORT_BY_URL.test(text);
      if (!byUrl && !text.includes("import.meta.url")) return undefined;
      text = text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href));
      if (byUrl) {
        text = `import { importBundled as __importBundled } from "${REGISTRY}";\n${text.replace(
          new RegExp(IMPORT_BY_URL.source, "g"),
          "__importBundled(pathToFileURL(",
        )}`;
      }
      return { contents: text, loader: args.path.endsWith("x") ? "tsx" : "ts" };
    });
  },
};

/** Bundles every child entry into `outDir`; answers each entry's bundle file. */
export async function buildChildBundles(outDir: string): Promise<Record<ChildEntry, string>> {
  const out = (entry: string) => path.join(outDir, entry.replace(/\.ts$/, ".mjs"));
  await build({
    absWorkingDir: ROOT,
    entryPoints: CHILD_ENTRIES.map((entry) => ({ in: entry, out: entry.replace(/\.ts$/, "") })),
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Packages load from node_modules as in production (native ones cannot be bundled anyway).
    packages: "external",
    sourcemap: "linked",
    logLevel: "error",
    plugins: [keepSourcePlaces],
  });
  return Object.fromEntries(CHILD_ENTRIES.map((entry) => [entry, out(entry)])) as Record<ChildEntry, string>;
}

/** How to run `entry` as a child process: node's arguments (its bundle, source-mapped stacks). */
export function childArgs(entry: ChildEntry): string[] {
  const bundle = inject("childBundles")[entry];
  return ["--enable-source-maps", bundle];
}
