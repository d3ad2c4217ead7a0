/**
 * Chunks cut along the routes a person opens first, so each is a few large files rather than
 * dozens of small ones. Brotli squeezes one 500 KB file much better than fifty 10 KB files (it
 * reuses what it saw earlier in the same file), and each file is a request of its own.
 *
 * A layer is named by its root modules; Rolldown puts in it what those roots import statically
 * and is left after tree-shaking (so `import { Form } from "antd"` brings Form, not all of
 * antd), less what a layer above already holds:
 *
 *   react   React itself, shared by both entries (the admin app and the public viewer);
 *   shell   what /manage/login needs: the entry, the sign-in screen, antd's core;
 *   app     what every screen behind sign-in needs: Refine, the layout, the providers;
 *   list    what a resource list needs on top of that (table, filters).
 *
 * A layer only imports the layers above it, so no two chunks import each other. Everything
 * else (forms, the PDF editor, the DAM, …) keeps Rolldown's own splitting.
 *
 * Public pages (the catalogue viewer, a public form) are entries of their own that must not
 * load the admin layers: a module such a page shares with a layer (a date or text helper, the
 * condition language) would otherwise sit in that layer's chunk, and the page would import it,
 * with the layer's CSS. Those modules go to a small `public-shared` chunk that both import.
 */
import path from "node:path";
import { normalizePath, type Plugin } from "vite";

/** One layer: its chunk name and the modules (paths from the project root) it starts from. */
export interface ChunkLayer {
  name: string;
  roots: readonly string[];
}

/** Modules of React itself: every entry needs them, nothing else. */
const REACT = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;

/** Entries of public pages, which load none of the layers (their own light bundles). */
export const PUBLIC_ENTRIES: readonly string[] = ["src/viewer/main.tsx", "src/forms-public/main.ts"];

/** The layers of this app, top first (bench/bundle-size.mjs measures the routes they serve). */
export const ROUTE_LAYERS: readonly ChunkLayer[] = [
  { name: "shell", roots: ["src/main.tsx", "src/pages/auth/login-page.tsx"] },
  { name: "app", roots: ["src/layout/main-layout.tsx"] },
  { name: "list", roots: ["src/resources/list/list-page.tsx"] },
];

export function routeChunks(
  layers: readonly ChunkLayer[] = ROUTE_LAYERS,
  publicEntries: readonly string[] = PUBLIC_ENTRIES,
): Plugin {
  let root = "";
  /** Modules a public page and a layer both import statically (found once the graph is known). */
  let publicShared = new Set<string>();
  const rootsOf = () =>
    new Map(
      layers.flatMap((layer) =>
        layer.roots.map((file) => [normalizePath(path.resolve(root, file)), layer.name] as const),
      ),
    );
  let layerOf = new Map<string, string>();
  return {
    name: "atelier-route-chunks",
    apply: "build",
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: "public-shared",
                  test: (id: string) => publicShared.has(id),
                  priority: layers.length + 2,
                },
                { name: "react", test: REACT, priority: layers.length + 1 },
                // Higher layers first: a module two layers reach goes to the higher one.
                ...layers.map((layer, index) => ({
                  name: layer.name,
                  test: (id: string) => layerOf.get(id) === layer.name,
                  priority: layers.length - index,
                })),
              ],
            },
          },
        },
      },
    }),
    configResolved(config) {
      root = config.root;
      layerOf = rootsOf();
    },
    buildEnd(error) {
      if (error) return;
      // A renamed or moved root would silently undo the split: stop the build instead.
      for (const [id, layer] of layerOf) {
        if (!this.getModuleInfo(id)) this.error(`route-chunks: ${id} (layer ${layer}) is not in the build`);
      }
      // Chunks are cut after this hook, so the groups' tests see the finished set.
      const closure = (starts: Iterable<string>) => {
        const seen = new Set<string>();
        const queue = [...starts];
        for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
          if (seen.has(id)) continue;
          seen.add(id);
          queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      const entries = publicEntries
        .map((file) => normalizePath(path.resolve(root, file)))
        .filter((id) => this.getModuleInfo(id));
      const layered = closure(layerOf.keys());
      const isReact = (id: string) => REACT.test(id);
      publicShared = new Set([...closure(entries)].filter((id) => layered.has(id) && !isReact(id)));
    },
  };
}
