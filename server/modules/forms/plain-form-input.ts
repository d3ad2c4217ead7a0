/**
 * What the public form's page without JavaScript posts, read (public.routes.ts): the
 * form-encoded body as fields, its own tracking inputs, and a few small readings of a request.
 */

export type Fields = Record<string, string | string[]>;

/** The query string of a URL, `?` included (`""` without one). */
export const queryOf = (url: string) => (url.includes("?") ? url.slice(url.indexOf("?")) : "");

/** No answer: nothing, an empty string, or a list of such. */
export const blank = (v: unknown): boolean =>
  v === undefined || v === null || v === "" || (Array.isArray(v) && v.every(blank));

/** The form-encoded body as fields; a repeated name (checkboxes) becomes a list. */
export function parseForm(text: string): Fields {
  const out: Fields = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const had = out[key];
    out[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

/** The plain form's own `_t_*` inputs, carried into the page rendered again. */
export function pickTracking(raw: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw))
    if (k.startsWith("_t_") && typeof v === "string") out[k.slice(3)] = v.slice(0, 2000);
  return out;
}
