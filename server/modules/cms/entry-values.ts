/**
 * What an entry's values hold beyond plain data, found by walking them with their type's
 * fields (through components and dynamic-zone blocks, to any depth): rich text to sanitise,
 * and references to media and related records, to check on write and to populate on read.
 */
import xssDefault from "xss";
import type { ContentField, TypeCatalogue } from "../../../schemas/cms-fields";

export interface Reference {
  kind: "media" | "relation";
  /** relation: the target type's API name or resource name. */
  target: string;
  id: string;
  /** Where the value is: `body.items.0.image`. */
  path: string;
}

type Values = Record<string, unknown>;
type Fields = Readonly<Record<string, ContentField>>;

const isObject = (v: unknown): v is Values => typeof v === "object" && v !== null && !Array.isArray(v);

/** Calls `visit` for every field value, nested ones included, with the field and its path. */
export function walkValues(
  fields: Fields,
  values: Values,
  catalogue: TypeCatalogue,
  visit: (field: ContentField, value: unknown, path: string, holder: Values, key: string) => void,
  prefix = "",
  depth = 0,
): void {
  if (depth > 32) return;
  for (const [name, field] of Object.entries(fields)) {
    const value = values[name];
    if (value === undefined || value === null) continue;
    const path = prefix ? `${prefix}.${name}` : name;
    visit(field, value, path, values, name);
    const kind = field["x-kind"];
    if (kind === "component") {
      const inner = catalogue.component(field["x-component"] ?? "")?.properties ?? {};
      const items = Array.isArray(value) ? value : [value];
      items.forEach((item, i) => {
        if (isObject(item))
          walkValues(inner, item, catalogue, visit, Array.isArray(value) ? `${path}.${i}` : path, depth + 1);
      });
    }
    if (kind === "dynamiczone" && Array.isArray(value)) {
      value.forEach((block, i) => {
        if (!isObject(block) || typeof block.__component !== "string") return;
        const inner = catalogue.component(block.__component)?.properties ?? {};
        walkValues(inner, block, catalogue, visit, `${path}.${i}`, depth + 1);
      });
    }
  }
}

/** Media and relation references in an entry's values. */
export function referencesOf(fields: Fields, values: Values, catalogue: TypeCatalogue): Reference[] {
  const refs: Reference[] = [];
  walkValues(fields, values, catalogue, (field, value, path) => {
    const kind = field["x-kind"];
    if (kind !== "media" && kind !== "relation") return;
    const target = kind === "media" ? "media" : (field["x-target"] ?? "");
    const ids = Array.isArray(value) ? value : [value];
    ids.forEach((id, i) => {
      if (typeof id === "string")
        refs.push({ kind, target, id, path: Array.isArray(value) ? `${path}.${i}` : path });
    });
  });
  return refs;
}

/** Tags and attributes rich text keeps: what an editor writes, never scripts or handlers. */
// xss is CommonJS: its named exports are read from the default one, as Node's ESM loader gives it.
const xss = xssDefault as unknown as typeof import("xss");
const sanitizer = new xss.FilterXSS({
  whiteList: {
    ...xss.getDefaultWhiteList(),
    h1: [],
    h2: [],
    h3: [],
    h4: [],
    a: ["href", "title", "target", "rel"],
    img: ["src", "alt", "title", "width", "height"],
  },
  stripIgnoreTag: true,
  stripIgnoreTagBody: ["script", "style", "iframe", "object"],
});

/** Rich text as stored: HTML with only the allowed tags and safe links. */
export function sanitiseHtml(html: string): string {
  return sanitizer.process(html);
}

/** Sanitises every rich-text value in place. */
export function sanitiseRichText(fields: Fields, values: Values, catalogue: TypeCatalogue): void {
  walkValues(fields, values, catalogue, (field, value, _path, holder, key) => {
    if (field["x-kind"] === "richtext" && typeof value === "string") holder[key] = sanitiseHtml(value);
  });
}
