/**
 * What kind of value a schema field holds, as the generated screens see it: one decision,
 * read by the list columns, the filters, the show page and the form hints. Pure.
 */
import { baseType, type EntitySchema, type FieldSchema } from "../../schemas/contract";
import { withArticle } from "../lib/text";

export type FieldKind =
  | "text"
  | "multiline"
  | "richtext"
  | "enum"
  | "boolean"
  | "integer"
  | "number"
  | "money"
  | "date"
  | "datetime"
  | "time"
  | "email"
  | "url"
  | "relation"
  | "media"
  | "assets"
  | "urls"
  | "list"
  | "id";

export interface Option<V = string | number | boolean> {
  value: V;
  label: string;
}

/** A field's relation hint, if it is a foreign key. */
export const relationOf = (field: FieldSchema | undefined) => field?.["x-relation"];

/** The schema has a `currency` field, so its decimal numbers are amounts in that currency. */
export const hasCurrency = (schema: EntitySchema): boolean => {
  const currency = schema.properties.currency;
  return currency !== undefined && baseType(currency) === "string";
};

/**
 * The kind of a field of `schema`.
 *
 * @example
 * fieldKind(productSchema, "price");       // "money" (a number, and the schema has `currency`)
 * fieldKind(productSchema, "category_id"); // "relation"
 * fieldKind(productSchema, "images");      // "media"
 */
export function fieldKind(schema: EntitySchema, name: string): FieldKind {
  const field = schema.properties[name];
  if (!field) return "text";
  if (field["x-relation"]) return "relation";
  if (field["x-asset"]) return "assets";
  if (field.enum) return "enum";
  switch (baseType(field)) {
    case "boolean":
      return "boolean";
    case "integer":
      return "integer";
    case "number":
      return hasCurrency(schema) ? "money" : "number";
    case "array":
      if (field["x-media"]) return "media";
      return field.items?.format === "uri" ? "urls" : "list";
  }
  if (field.format === "date-time") return "datetime";
  if (field.format === "date") return "date";
  if (field.format === "time") return "time";
  if (field.format === "email") return "email";
  if (field.format === "uri") return "url";
  if (field.format === "uuid") return "id";
  if (field["x-richText"]) return "richtext";
  return field["x-multiline"] ? "multiline" : "text";
}

/** The field's title, or its name made readable (`sku_code` → "Sku code"). */
export function fieldTitle(schema: EntitySchema, name: string): string {
  const title = schema.properties[name]?.title;
  if (title) return title;
  const words = name.replace(/_id$/, "").replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Options of an enum field, labelled by `x-enumLabels` when it has them. */
export function enumOptions(field: FieldSchema | undefined): Option<string | number>[] {
  const labels = field?.["x-enumLabels"];
  return (field?.enum ?? []).map((value, i) => ({ value, label: labels?.[i] ?? String(value) }));
}

/** The label of one enum value. */
export function enumLabel(field: FieldSchema | undefined, value: unknown): string {
  return enumOptions(field).find((o) => o.value === value)?.label ?? String(value);
}

/** Fields that hold numbers: right-aligned in tables. */
export const isNumeric = (kind: FieldKind): boolean =>
  kind === "integer" || kind === "number" || kind === "money";

/**
 * A title inside a sentence: lower-cased, unless it starts with an acronym ("SKU code").
 *
 * @example
 * inSentence("Name");     // "name"
 * inSentence("SKU code"); // "SKU code"
 */
export function inSentence(title: string): string {
  return /^[A-Z][a-z]/.test(title) ? title.charAt(0).toLowerCase() + title.slice(1) : title;
}

/**
 * Words joined as in a sentence.
 *
 * @example
 * joinWords(["SKU code", "name", "description"]); // "SKU code, name or description"
 */
export function joinWords(words: readonly string[], conjunction = "or"): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} ${conjunction} ${words[words.length - 1]}`;
}

/**
 * A select's placeholder, the one way the generated forms ask for a value: "Choose an industry",
 * "Choose an opportunity", "Choose an SMS template"; for many, "Choose tags".
 *
 * @example
 * choosePlaceholder("Industry");             // "Choose an industry"
 * choosePlaceholder("Tags", { many: true }); // "Choose tags"
 */
export function choosePlaceholder(title: string, { many = false }: { many?: boolean } = {}): string {
  const noun = inSentence(title.trim() || (many ? "Values" : "Value"));
  return `Choose ${many ? noun : withArticle(noun)}`;
}

/**
 * A list filter's placeholder: "Any industry", "Any UTM source" (the title's acronyms kept).
 * A yes-or-no field reads as its own words with "any", "yes" or "no" after them
 * ("Agrees to SMS: any"): "Any i agree to be contacted" said nothing.
 *
 * @example
 * anyPlaceholder("Industry");        // "Any industry"
 * anyPlaceholder("Agrees to SMS", true); // "Agrees to SMS: any"
 */
export function anyPlaceholder(title: string, yesNo = false): string {
  return yesNo ? `${title}: any` : `Any ${inSentence(title)}`;
}
