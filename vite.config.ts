import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { resolveServiceBases, type ServiceBase } from "./providers/service-bases";
import { ACCESS_TOKEN_COOKIE } from "./providers/token-store";
import { antdIconsByName } from "./scripts/vite/antd-icons";
import { antdStyles } from "./scripts/vite/antd-styles";
import { browserFinders } from "./scripts/vite/browser-finders";
import { precompressAssets } from "./scripts/vite/precompress";
import { routeChunks } from "./scripts/vite/route-chunks";
import { signedInPreload } from "./scripts/vite/signed-in-preload";
import { LIST_PATH, PUBLIC_PATHS } from "./src/app-paths";

/** Where the admin app is served; the server redirects `/` here. */
const BASE = "/manage/";
const API_ORIGIN = "http://127.0.0.1:8080";

/**
 * Stamps the build: `__BUILD_DATE__` in the code and `meta.json` `{ buildDateTime }` in the
 * output. The running app compares the two to force a hard reload after a deploy (spec §2).
 */
function buildMeta(): Plugin {
  const buildDateTime = new Date().toISOString();
  return {
    name: "atelier-build-meta",
    config: () => ({ define: { __BUILD_DATE__: JSON.stringify(buildDateTime) } }),
    generateBundle() {
      this.emitFile({
        type: "asset",
        fileName: "meta.json",
        source: `${JSON.stringify({ buildDateTime }, null, 2)}\n`,
      });
    },
  };
}

/** Bases the bundle fetches from or opens sockets to; `assets` also feeds img-src. */
const CONNECT_BASES: ServiceBase[] = ["api", "assets", "cms", "publicCms", "crm", "forms", "dam"];
const SOCKET_BASES: ServiceBase[] = ["socket", "damSocket"];

/**
 * Writes `csp-sources.json`: the external origins of this build's `VITE_*_BASE` settings, for
 * the server's Content-Security-Policy (server/http/built-pages.ts). Same-origin bases (the
 * default) add nothing.
 */
function cspSources(): Plugin {
  let env: Record<string, unknown> = {};
  return {
    name: "atelier-csp-sources",
    apply: "build",
    configResolved(config) {
      env = config.env;
    },
    generateBundle() {
      const bases = resolveServiceBases(env);
      const originOf = (base: string) => (/^(https?|wss?):\/\//.test(base) ? new URL(base).origin : null);
      const connect = new Set<string>();
      for (const key of CONNECT_BASES) {
        const origin = originOf(bases[key]);
        if (origin) connect.add(origin);
      }
      for (const key of SOCKET_BASES) {
        const origin = originOf(bases[key]);
        // socket.io polls over http(s), then upgrades to ws(s) on the same host.
        if (origin) for (const scheme of ["http", "ws"]) connect.add(origin.replace(/^(http|ws)/, scheme));
      }
      const asset = originOf(bases.assets);
      this.emitFile({
        type: "asset",
        fileName: "csp-sources.json",
        source: `${JSON.stringify({ connect: [...connect], img: asset ? [asset] : [] }, null, 2)}\n`,
      });
    },
  };
}

/**
 * Packages with no side effects on import that do not say so in their package.json, so an
 * unused import of them is dropped: @refinedev/antd imports react-markdown (and its remark and
 * micromark tree) for a MarkdownField the app never shows.
 */
const PURE_PACKAGES = [
  {
    test: /[\\/]node_modules[\\/](react-markdown|remark-[\w-]+|micromark[\w-]*|mdast-[\w-]+|hast-[\w-]+|unist-[\w-]+|unified|vfile[\w-]*|property-information|papaparse|sunflower-antd)[\\/]/,
    sideEffects: false,
  },
];

/**
 * `@ant-design/icons/ArrowLeftOutlined` (how @ant-design/pro-layout imports icons) is the
 * CommonJS build, a second copy of the icon runtime beside the ES one antd uses: point it at
 * the ES module.
 */
const ESM_ICONS = [
  {
    find: /^@ant-design\/icons\/([A-Z]\w*(?:Outlined|Filled|TwoTone))(\.js)?$/,
    replacement: "@ant-design/icons/es/icons/$1.js",
  },
];

/**
 * Lighter stand-ins for packages the admin app would otherwise carry on every screen
 * behind sign-in (each file says why it is equivalent for what uses it here).
 */
const LIGHTER = [
  {
    find: /^@ant-design\/pro-layout$/,
    replacement: path.resolve(import.meta.dirname, "src/layout/page-header.tsx"),
  },
  { find: /^side-channel$/, replacement: path.resolve(import.meta.dirname, "src/vendor/side-channel.cjs") },
  {
    find: /^@refinedev\/devtools-internal$/,
    replacement: path.resolve(import.meta.dirname, "src/vendor/refine-devtools.js"),
  },
];

/**
 * Parts of antd the admin app never uses but would load on its first screens, swapped for
 * small stand-ins that fail loudly if used (each file in src/vendor says why). They are matched
 * by the importing antd module, since antd imports them relatively or other screens need the
 * real module: Table's column filter dropdown, Card's tabs, Table's tree-data and radio selection; and
 * cssinjs's style writer, wrapped to skip the writes that change nothing (dynamic-css.js).
 */
function lighterModules(): Plugin {
  const vendor = (file: string) => path.resolve(import.meta.dirname, "src/vendor", file);
  /** [what is imported, by which antd module, the stand-in]. */
  const standIns: [string[], RegExp, string][] = [
    [
      ["./FilterDropdown"],
      /[\\/]antd[\\/]es[\\/]table[\\/]hooks[\\/]useFilter[\\/]index\.js$/,
      "table-filter-dropdown.js",
    ],
    [["../tabs"], /[\\/]antd[\\/]es[\\/]card[\\/]Card\.js$/, "card-tabs.js"],
    [
      ["rc-tree/es/util", "rc-tree/es/utils/conductUtil", "rc-tree/es/utils/treeUtil"],
      /[\\/]antd[\\/]es[\\/]table[\\/]hooks[\\/]useSelection\.js$/,
      "table-selection-tree.js",
    ],
    [
      ["../../radio"],
      /[\\/]antd[\\/]es[\\/]table[\\/]hooks[\\/]useSelection\.js$/,
      "table-selection-radio.js",
    ],
    // Not lighter but quicker: cssinjs's style updates answered at once when nothing changed.
    [["rc-util/es/Dom/dynamicCSS"], /[\\/]@ant-design[\\/]cssinjs[\\/]es[\\/]/, "dynamic-css.js"],
  ];
  return {
    name: "atelier-lighter-modules",
    enforce: "pre",
    resolveId(source, importer) {
      if (!importer) return null;
      const found = standIns.find(([sources, by]) => sources.includes(source) && by.test(importer));
      return found ? vendor(found[2]) : null;
    },
  };
}

/** The embed script's source and its fixed address in the build (`GET /forms/embed.js` serves it). */
const EMBED_ENTRY = "src/forms-public/embed.ts";
const EMBED_FILE = "embed.js";

/**
 * Builds the forms embed script (src/forms-public/embed.ts) as `assets/embed.js`: one classic
 * script with everything inlined, under a name that never changes, since other sites load it
 * with `<script src=… async>`. It cannot be an entry of the main build: an entry there is an ES
 * module that imports the chunks it shares with the form's page (the renderer, the checks),
 * which a classic script cannot load. So it is a build of its own (Vite's library mode, IIFE),
 * run inside this one and emitted as an asset, which also gets it precompressed.
 */
function embedScript(): Plugin {
  let root = "";
  let assetsDir = "";
  let mode = "";
  return {
    name: "atelier-embed-script",
    apply: "build",
    configResolved(config) {
      root = config.root;
      assetsDir = config.build.assetsDir;
      mode = config.mode;
    },
    async generateBundle() {
      const { build } = await import("vite");
      const result = await build({
        configFile: false,
        root,
        mode,
        logLevel: "warn",
        publicDir: false,
        build: {
          write: false,
          emptyOutDir: false,
          lib: {
            entry: EMBED_ENTRY,
            formats: ["iife"],
            name: "AtelierFormsEmbed",
            fileName: () => EMBED_FILE,
          },
        },
      });
      const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) =>
        "output" in r ? r.output : [],
      );
      const chunk = outputs.find((o) => o.type === "chunk");
      if (!chunk || outputs.length !== 1)
        this.error(`embed script: expected one file, got ${outputs.length}`);
      this.emitFile({ type: "asset", fileName: `${assetsDir}/${EMBED_FILE}`, source: chunk.code });
    },
  };
}

export default defineConfig({
  base: BASE,
  // browserFinders: the definitions of resources/ come from import.meta.glob, not the disk.
  // antdIconsByName: icons named by definitions, checked, in one lazy chunk.
  // routeChunks: the first routes' code in a few large chunks (see scripts/vite/route-chunks.ts).
  // antdStyles: antd's CSS made at build time for the app's theme (scripts/vite/antd-styles.ts).
  // signedInPreload: with a session, the layout's chunk (and a list's) fetched beside the shell's.
  plugins: [
    react(),
    browserFinders(),
    antdIconsByName(),
    routeChunks(),
    lighterModules(),
    buildMeta(),
    cspSources(),
    embedScript(),
    antdStyles(),
    signedInPreload({
      sessionCookie: ACCESS_TOKEN_COOKIE,
      publicPaths: PUBLIC_PATHS,
      layers: [
        { module: "src/layout/main-layout.tsx" },
        { module: "src/resources/list/list-page.tsx", path: LIST_PATH },
      ],
    }),
    precompressAssets(),
  ],
  resolve: { alias: [...ESM_ICONS, ...LIGHTER] },
  build: {
    outDir: "dist/client",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      // form.html: a public form's page (src/forms-public); its embed script is built apart.
      input: { main: "index.html", viewer: "viewer.html", form: "form.html" },
      treeshake: { moduleSideEffects: PURE_PACKAGES },
    },
  },
  server: {
    port: 5173,
    proxy: {
      "/api": API_ORIGIN,
      "/clients": API_ORIGIN,
      "/meta.json": API_ORIGIN,
      // Live updates (socket.io: polling and the WebSocket upgrade).
      "/socket.io": { target: API_ORIGIN, ws: true },
    },
  },
});
