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

/** The layers of this app, top first (bench/bundle-size.mjs measures the routes they serve). */
export const ROUTE_LAYERS: readonly ChunkLayer[] = [
  { name: "shell", roots: ["src/main.tsx", "src/pages/auth/login-page.tsx"] },
  { name: "app", roots: ["src/layout/main-layout.tsx"] },
  { name: "list", roots: ["src/resources/list/list-page.tsx"] },
];

export function routeChunks(layers: readonly ChunkLayer[] = ROUTE_LAYERS): Plugin {
  let root = "";
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
    },
  };
}
