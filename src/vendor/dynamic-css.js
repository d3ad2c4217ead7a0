/**
 * rc-util's dynamicCSS as @ant-design/cssinjs gets it (the `lighterModules` plugin in
 * vite.config.ts puts this file in its place for cssinjs only), with `updateCSS` answering at
 * once when the style it is asked for is in the page already with the same text.
 *
 * cssinjs calls `updateCSS` as every antd component mounts, for the theme's CSS variables and
 * the component's own (useCacheToken, useCSSVarRegister): the styles are there after the first
 * one, yet each call lists the head's children, reads their marks and serialises the style's
 * text (the theme's variables are 11 KB) to compare it. A list screen mounts a few hundred antd
 * components, so these calls were a fifth of its first render's commit (issue 28). Here a style
 * this module wrote is remembered with its text; while it is still in the page, marked with the
 * same key, and asked for with the same text and no CSP nonce, it is returned as it is. Anything
 * else goes to rc-util's own `updateCSS`, which is what it did before.
 */
import { updateCSS as rcUpdateCSS } from "rc-util/es/Dom/dynamicCSS";

export { clearContainerCache, injectCSS, removeCSS } from "rc-util/es/Dom/dynamicCSS";

/** rc-util's attribute that carries a style's key (its `getMark`). */
function markOf(option) {
  const mark = option.mark;
  if (mark) return mark.startsWith("data-") ? mark : `data-${mark}`;
  return "rc-util-key";
}

/** Per container (rc-util's `getContainer`): each written style by mark and key, with its text. */
const written = new WeakMap();

export function updateCSS(css, key, option = {}) {
  const container = option.attachTo || document.querySelector("head") || document.body;
  const mark = markOf(option);
  const id = `${mark}\n${key}`;
  let styles = written.get(container);
  const known = styles?.get(id);
  if (
    known &&
    known.css === css &&
    !option.csp?.nonce &&
    known.node.isConnected &&
    known.node.getAttribute(mark) === key
  ) {
    return known.node;
  }
  const node = rcUpdateCSS(css, key, option);
  if (!styles) {
    styles = new Map();
    written.set(container, styles);
  }
  styles.set(id, { node, css });
  return node;
}
