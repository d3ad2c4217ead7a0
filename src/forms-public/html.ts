/**
 * The two helpers every string of public form markup goes through: the renderer runs on the
 * server, so whatever a form's author or a respondent typed (labels, options, answers) must
 * arrive in the page as text, never as markup.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text made safe for HTML content and for quoted attribute values alike.
 *
 * @example
 * escapeHtml(`<img src=x onerror="alert(1)">`); // "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** An attribute's value: text or a number is written, `true` is a bare attribute, the rest is left out. */
export type AttrValue = string | number | boolean | null | undefined;

/**
 * Attributes as markup, each value escaped, in the order given (tests compare strings).
 *
 * @example
 * attrs({ type: "text", name: "q", required: true, hidden: false }); // ` type="text" name="q" required`
 */
export function attrs(map: Readonly<Record<string, AttrValue>>): string {
  let out = "";
  for (const [name, value] of Object.entries(map)) {
    if (value === true) out += ` ${name}`;
    else if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value)))
      out += ` ${name}="${escapeHtml(value)}"`;
  }
  return out;
}

/** An element with escaped attributes around markup that is already safe. */
export const tag = (name: string, attributes: Readonly<Record<string, AttrValue>>, inner = "") =>
  `<${name}${attrs(attributes)}>${inner}</${name}>`;
