/**
 * antd's styles made once at build time instead of in every browser at run time (issue 28,
 * "the first row within a second"). antd generates each component's CSS in JavaScript the
 * first time the component renders (@ant-design/cssinjs): parse, serialise and inject, on
 * the critical path of every first screen. This plugin renders every antd component once in
 * Node with the app's theme, collects the styles cssinjs made, and emits them as one stylesheet
 * linked from index.html. The sheet ends with cssinjs's own map of what it holds
 * (`.data-ant-cssinjs-cache-path{content:"…"}`): in the browser, a component whose styles the
 * map names uses the sheet's and generates nothing. What the sheet lacks (a theme other than
 * the app's, such as the reduced-motion one) is generated at run time as before.
 *
 * The styles must be the browser's: the same antd, the same theme (src/antd-theme.ts, whose
 * `cssVar.key` is fixed so the server's render and the browser's agree), production class
 * names (cssinjs reads NODE_ENV when it loads; `vite build` sets it first).
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { Plugin } from "vite";
import { theme } from "../../src/antd-theme";

const require = createRequire(import.meta.url);

/**
 * antd components the app does not use (nor Refine's antd screens): left out of the sheet,
 * which every first screen loads. One used after all is styled at run time, as before.
 */
const UNUSED = [
  "Affix",
  "Anchor",
  "BackTop",
  "Calendar",
  "Carousel",
  "Cascader",
  "Collapse",
  "ColorPicker",
  "FloatButton",
  "Mentions",
  "QRCode",
  "Rate",
  "Slider",
  "Splitter",
  "Steps",
  "Tour",
  "Transfer",
  "TreeSelect",
  "Watermark",
];

/** antd's components rendered for their styles, with the props some need to render at all. */
function antdNodes(React: typeof import("react"), antd: Record<string, unknown>) {
  const h = React.createElement;
  const skip = new Set(["ConfigProvider", "Grid", "App", ...UNUSED]);
  const props: Record<string, () => Record<string, unknown>> = {
    Dropdown: () => ({ menu: { items: [] } }),
    Menu: () => ({ items: [] }),
    Tree: () => ({ treeData: [] }),
    Tabs: () => ({ items: [{ key: "a", label: "a", children: "a" }] }),
    Table: () => ({
      columns: [{ title: "a", dataIndex: "a" }],
      dataSource: [{ key: 1, a: 1 }],
      pagination: {},
    }),
    Form: () => ({ children: h((antd.Form as { Item: never }).Item, { label: "a" }, h("span")) }),
    Layout: () => ({ children: [h((antd.Layout as { Sider: never }).Sider, { key: "s" })] }),
  };
  const nodes: { name: string; node: unknown }[] = [];
  for (const name of Object.keys(antd)) {
    if (name[0] !== name[0].toUpperCase() || skip.has(name)) continue;
    const Component = antd[name] as { _InternalPanelDoNotUseOrYouWillBeFired?: unknown } | undefined;
    if (!Component) continue;
    // Popups render their panel in place (no portal, no document), which registers their styles.
    const panel = Component._InternalPanelDoNotUseOrYouWillBeFired;
    nodes.push({ name, node: h((panel ?? Component) as never, props[name]?.() ?? {}) });
    if (panel) nodes.push({ name: `${name} (closed)`, node: h(Component as never, props[name]?.() ?? {}) });
  }
  return nodes;
}

/** The stylesheet of every antd component under the app's theme, and what failed to render. */
export function extractAntdStyles(): { css: string; failed: string[] } {
  const React = require("react") as typeof import("react");
  const { renderToString } = require("react-dom/server") as typeof import("react-dom/server");
  const antd = require("antd") as Record<string, unknown>;
  const cssinjs = require("@ant-design/cssinjs") as typeof import("@ant-design/cssinjs");
  const cache = cssinjs.createCache();
  const failed: string[] = [];
  const h = React.createElement;
  for (const { name, node } of antdNodes(React, antd)) {
    try {
      renderToString(
        h(
          cssinjs.StyleProvider,
          { cache },
          h(antd.ConfigProvider as never, { theme }, h(antd.App as never, null, node as never)),
        ),
      );
    } catch {
      failed.push(name);
    }
  }
  return { css: cssinjs.extractStyle(cache, { plain: true }), failed };
}

/** Emits the stylesheet and links it first in index.html's head (so the app's own CSS wins). */
export function antdStyles(): Plugin {
  let fileName = "";
  let css = "";
  let base = "/";
  return {
    name: "atelier-antd-styles",
    apply: "build",
    configResolved(config) {
      base = config.base;
      if (process.env.NODE_ENV !== "production")
        throw new Error("antd's styles are extracted for production builds only (NODE_ENV=production)");
    },
    buildStart() {
      const extracted = extractAntdStyles();
      css = extracted.css;
      if (extracted.failed.length)
        this.warn(
          `antd styles: made at run time for ${extracted.failed.join(", ")} (they did not render in Node)`,
        );
      const hash = createHash("sha256").update(css).digest("hex").slice(0, 10);
      fileName = `assets/antd-${hash}.css`;
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName, source: css });
    },
    transformIndexHtml: {
      order: "post",
      handler(_html, context) {
        if (!context.filename.endsWith("index.html") || !fileName) return [];
        return [
          { tag: "link", attrs: { rel: "stylesheet", href: `${base}${fileName}` }, injectTo: "head-prepend" },
        ];
      },
    },
  };
}
