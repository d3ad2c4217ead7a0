/**
 * The signed-in screens' code fetched as the page starts (issue 28, "the first row within a
 * second"). The shell asks for the layout's chunk (and a list's) only once its own code has
 * arrived and run (preloadScreens in src/app.tsx): on a cold load those requests wait for the
 * shell's 130 KB, then the layout's 140 KB waits for them. A few lines in index.html, run as
 * the page is parsed, add `modulepreload` links for these chunks when there is a session and
 * the address is behind sign-in, so they come beside the shell's. The sign-in page loads
 * nothing more (no session there, and its address is a public one).
 *
 * The chunks are the route layers of scripts/vite/route-chunks.ts with their static imports
 * (less what index.html loads already) and stylesheets; the server's CSP allows the inline
 * script by its hash (server/http/built-pages.ts).
 */
import path from "node:path";
import type { OutputBundle, OutputChunk } from "rolldown";
import { normalizePath, type Plugin } from "vite";

export interface SignedInPreloadOptions {
  /** The cookie holding the access token (providers/token-store.ts). */
  sessionCookie: string;
  /** Addresses that need no session (src/app-paths.ts): nothing is preloaded there. */
  publicPaths: RegExp;
  /**
   * Chunks to preload behind sign-in, each named by a module it holds (a route layer's root, from
   * the project root): everywhere, or where `path` matches. Not by chunk name: antd's List
   * component's chunk is called "list" too.
   */
  layers: readonly { module: string; path?: RegExp }[];
}

/** The files a chunk brings: itself, what it imports statically (transitively), their CSS. */
function filesOf(bundle: OutputBundle, chunk: OutputChunk): { js: string[]; css: string[] } {
  const js: string[] = [];
  const css = new Set<string>();
  const queue = [chunk.fileName];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const item = bundle[file];
    if (js.includes(file) || item?.type !== "chunk") continue;
    js.push(file);
    for (const sheet of item.viteMetadata?.importedCss ?? []) css.add(sheet);
    queue.push(...item.imports);
  }
  return { js, css: [...css] };
}

/** The inline script: `links` is `[pathPattern | null, href, "script" | "style"][]`. */
export function preloadScript(
  options: SignedInPreloadOptions,
  links: [string | null, string, string][],
): string {
  const cookie = new RegExp(`(^|;\\s*)${options.sessionCookie}=[^;]`).source;
  return [
    "(function(){try{",
    `if(!/${cookie}/.test(document.cookie))return;`,
    "var p=location.pathname;",
    `if(/${options.publicPaths.source}/.test(p))return;`,
    `var l=${JSON.stringify(links)};`,
    "for(var i=0;i<l.length;i++){var k=l[i];if(k[0]&&!new RegExp(k[0]).test(p))continue;",
    'var e=document.createElement("link");',
    'if(k[2]==="script"){e.rel="modulepreload";e.crossOrigin="";}else{e.rel="preload";e.as="style";}',
    "e.href=k[1];document.head.appendChild(e);}",
    "}catch(_){}})();",
  ].join("");
}

export function signedInPreload(options: SignedInPreloadOptions): Plugin {
  let base = "/";
  let root = "";
  return {
    name: "atelier-signed-in-preload",
    apply: "build",
    configResolved(config) {
      base = config.base;
      root = config.root;
    },
    transformIndexHtml: {
      order: "post",
      handler(html, context) {
        const bundle = context.bundle;
        const entry = context.chunk;
        if (!context.filename.endsWith("index.html") || !bundle || !entry) return html;
        // What index.html loads already (the shell's graph) is not asked for twice.
        const shell = filesOf(bundle, entry);
        const loaded = new Set([...shell.js, ...shell.css]);
        const links: [string | null, string, string][] = [];
        const listed = new Set<string>();
        for (const layer of options.layers) {
          const id = normalizePath(path.resolve(root, layer.module));
          const chunk = Object.values(bundle).find(
            (item): item is OutputChunk => item.type === "chunk" && item.moduleIds.includes(id),
          );
          if (!chunk) throw new Error(`signed-in-preload: no chunk holds ${layer.module}`);
          const { js, css } = filesOf(bundle, chunk);
          for (const [files, kind] of [
            [js, "script"],
            [css, "style"],
          ] as const) {
            for (const file of files) {
              if (loaded.has(file) || listed.has(file)) continue;
              listed.add(file);
              links.push([layer.path ? layer.path.source : null, `${base}${file}`, kind]);
            }
          }
        }
        // First in the head: a script after a stylesheet waits for it (antd's is render-blocking),
        // and the charset stays within the first 1024 bytes, where the browser looks for it.
        const charset = /<meta charset="[^"]+"\s*\/?>\s*/i;
        const meta = html.match(charset)?.[0].trim();
        if (!meta) throw new Error("signed-in-preload: index.html has no <meta charset>");
        return html
          .replace(charset, "")
          .replace(
            /<head>\s*/i,
            `<head>\n    ${meta}\n    <script>${preloadScript(options, links)}</script>\n    `,
          );
      },
    },
  };
}
