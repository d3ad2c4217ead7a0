/**
 * CMS content types as data (issue 14). A type is stored as an `EntitySchema` (the format the
 * resource engine reads, schemas/contract.ts) whose properties carry the builder's field kind
 * in `x-kind`; its entries keep their values in `jsonb`. This file says which kinds exist,
 * what each field may say, how a type is checked, and the plain JSON Schema an entry is
 * validated by (components inlined to any depth). Pure: the builder, the entry forms and the
 * server read the same rules.
 */
import type { FieldError } from "./error-messages";

export const CONTENT_TYPE_KINDS = ["collection", "single", "component"] as const;
export type ContentTypeKind = (typeof CONTENT_TYPE_KINDS)[number];

/** The builder's field kinds, in the palette's order. */
export const FIELD_KINDS = [
  "text",
  "longtext",
  "richtext",
  "integer",
  "decimal",
  "boolean",
  "date",
  "datetime",
  "enum",
  "email",
  "url",
  "slug",
  "media",
  "relation",
  "component",
  "dynamiczone",
  "json",
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

export const FIELD_KIND_LABELS: Readonly<Record<FieldKind, string>> = {
  text: "Short text",
  longtext: "Long text",
  richtext: "Rich text",
  integer: "Whole number",
  decimal: "Decimal number",
  boolean: "Yes / no",
  date: "Date",
  datetime: "Date and time",
  enum: "Choice list",
  email: "Email",
  url: "URL",
  slug: "Slug",
  media: "Media",
  relation: "Relation",
  component: "Component",
  dynamiczone: "Dynamic zone",
  json: "JSON",
};

/** API names no content type may take: the public API's own path segments. */
export const RESERVED_TYPE_NAMES = ["singles", "navigations", "media", "domains", "content-types"] as const;

/** Where relation fields may point besides content types: resources of other modules. */
export const RELATION_RESOURCES: Readonly<Record<string, { label: string; labelField: string }>> = {
  products: { label: "Products", labelField: "name" },
};

/** A field of a content type: JSON Schema with the builder's hints. */
export interface ContentField {
  type?: string | readonly string[];
  "x-kind": FieldKind;
  title: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  "x-patternMessage"?: string;
  minimum?: number;
  maximum?: number;
  enum?: readonly string[];
  "x-enumLabels"?: readonly string[];
  default?: unknown;
  format?: string;
  /** media, relation, component: many values (a list) instead of one. */
  "x-multiple"?: boolean;
  /** relation: a content type's API name, or a resource of RELATION_RESOURCES. */
  "x-target"?: string;
  /** component: the component's API name. */
  "x-component"?: string;
  /** dynamiczone: the components its blocks may be. */
  "x-components"?: readonly string[];
  /** slug: the field it is generated from. */
  "x-slugFrom"?: string;
  /** Unique among the type's entries (per domain for slugs). */
  "x-unique"?: boolean;
  /** One value in every locale, the entry's own (else each locale has its own: schemas/cms-locales.ts). */
  "x-shared"?: boolean;
  "x-multiline"?: boolean;
  "x-richText"?: boolean;
  "x-media"?: boolean;
  items?: Record<string, unknown>;
  minItems?: number;
  maxItems?: number;
}

/** A content type's schema as stored (the EntitySchema shape; `x-table` is the entries table). */
export interface ContentSchema {
  $id: string;
  title: string;
  type: "object";
  additionalProperties: false;
  "x-table": "cms_entries";
  "x-label": string;
  "x-defaultSort": string;
  "x-list": readonly string[];
  "x-searchable": readonly string[];
  "x-filterable": readonly string[];
  required: readonly string[];
  properties: Readonly<Record<string, ContentField>>;
  /** The fields' order in forms and lists (the database keeps an object's keys in an order of its own). */
  "x-order"?: readonly string[];
}

/** A field name: a JSON key safe in paths, forms and CSV headers. */
export const FIELD_NAME = /^[a-z][a-z0-9_]{0,62}$/;
/** A type's API name: kebab-case, the public path segment. */
export const API_NAME = /^[a-z][a-z0-9-]{0,62}$/;
/** What a slug may hold. */
export const SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";

/** Kinds whose values a list can show, search, filter and sort (scalars). */
const LISTABLE: ReadonlySet<FieldKind> = new Set([
  "text",
  "integer",
  "decimal",
  "boolean",
  "date",
  "datetime",
  "enum",
  "email",
  "url",
  "slug",
]);
const SEARCHABLE: ReadonlySet<FieldKind> = new Set(["text", "longtext", "email", "url", "slug"]);

/** The stored schema of a type from its name and fields: list hints derived from the kinds. */
export function contentSchemaOf(
  apiName: string,
  title: string,
  properties: Readonly<Record<string, ContentField>>,
  required: readonly string[],
): ContentSchema {
  const names = Object.keys(properties);
  const listable = names.filter((n) => LISTABLE.has(properties[n]["x-kind"]));
  const label = listable.find((n) => properties[n]["x-kind"] === "text") ?? listable[0] ?? names[0] ?? "";
  return {
    $id: `cms:${apiName}`,
    title,
    type: "object",
    additionalProperties: false,
    "x-table": "cms_entries",
    "x-label": label,
    "x-defaultSort": "-updated_at",
    "x-list": [...new Set([label, ...listable].filter(Boolean))].slice(0, 5),
    "x-searchable": names.filter((n) => SEARCHABLE.has(properties[n]["x-kind"])),
    "x-filterable": listable,
    required: required.filter((r) => names.includes(r)),
    properties,
    "x-order": names,
  };
}

/** What the type checks need to know of the other types. */
export interface TypeCatalogue {
  kindOf(apiName: string): ContentTypeKind | undefined;
  /** A component's schema (undefined: no such component). */
  component(apiName: string): Pick<ContentSchema, "properties" | "required"> | undefined;
}

const NUMERIC: ReadonlySet<FieldKind> = new Set(["integer", "decimal"]);
const TEXTUAL: ReadonlySet<FieldKind> = new Set(["text", "longtext", "richtext", "email", "url", "slug"]);

/**
 * Problems with a type's definition, per field (`properties.<name>.<what>`), in words: names,
 * kinds and their options, references to components and relation targets, component cycles.
 */
export function checkContentType(
  self: { apiName: string; kind: ContentTypeKind },
  properties: Readonly<Record<string, ContentField>>,
  catalogue: TypeCatalogue,
): FieldError[] {
  const errors: FieldError[] = [];
  const err = (field: string, message: string) => errors.push({ field, message });
  const names = Object.keys(properties);
  if (self.kind !== "component" && names.length === 0) err("properties", "Add at least one field");
  for (const name of names) {
    const f = properties[name];
    const at = `properties.${name}`;
    if (!FIELD_NAME.test(name)) {
      err(
        at,
        `Field name '${name}' may only contain lower-case letters, digits and _, starting with a letter`,
      );
      continue;
    }
    if (["id", "created_at", "updated_at", "created_by", "updated_by", "status"].includes(name))
      err(at, `Field name '${name}' is used by every entry; choose another`);
    if (!FIELD_KINDS.includes(f["x-kind"])) {
      err(`${at}.x-kind`, `${f.title || name}: choose a field kind`);
      continue;
    }
    if (typeof f.title !== "string" || !f.title.trim()) err(`${at}.title`, `Field '${name}' needs a title`);
    const kind = f["x-kind"];
    const label = f.title || name;
    if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength)
      err(`${at}.maxLength`, `${label}: the longest length must not be shorter than the shortest`);
    if (f.minimum !== undefined && f.maximum !== undefined && f.minimum > f.maximum)
      err(`${at}.maximum`, `${label}: the maximum must not be below the minimum`);
    if ((f.minLength !== undefined || f.maxLength !== undefined || f.pattern) && !TEXTUAL.has(kind))
      err(`${at}.maxLength`, `${label}: lengths and patterns apply to text fields only`);
    if ((f.minimum !== undefined || f.maximum !== undefined) && !NUMERIC.has(kind))
      err(`${at}.minimum`, `${label}: a minimum and maximum apply to number fields only`);
    if (f.pattern !== undefined) {
      try {
        new RegExp(f.pattern, "u");
      } catch {
        err(`${at}.pattern`, `${label}: the pattern is not a valid regular expression`);
      }
    }
    if (kind === "enum" && (!Array.isArray(f.enum) || f.enum.length === 0))
      err(`${at}.enum`, `${label}: list at least one choice`);
    if (kind === "enum" && Array.isArray(f.enum) && new Set(f.enum).size !== f.enum.length)
      err(`${at}.enum`, `${label}: each choice may appear once`);
    if (kind === "slug") {
      const from = f["x-slugFrom"];
      if (from !== undefined && (!properties[from] || !TEXTUAL.has(properties[from]["x-kind"])))
        err(`${at}.x-slugFrom`, `${label}: generate the slug from a text field of this type`);
      if (self.kind === "component") err(at, `${label}: a component cannot have a slug`);
    }
    if (kind === "relation") {
      const target = f["x-target"] ?? "";
      const targetKind = catalogue.kindOf(target);
      if (!RELATION_RESOURCES[target] && (!targetKind || targetKind === "component"))
        err(`${at}.x-target`, `${label}: choose the content type or resource it relates to`);
    }
    if (kind === "component") {
      const c = f["x-component"] ?? "";
      if (catalogue.kindOf(c) !== "component") err(`${at}.x-component`, `${label}: choose a component`);
      else if (reaches(c, self.apiName, catalogue))
        err(`${at}.x-component`, `${label}: a component cannot contain itself`);
    }
    if (kind === "dynamiczone") {
      const list = f["x-components"] ?? [];
      if (!list.length) err(`${at}.x-components`, `${label}: allow at least one component`);
      for (const c of list) {
        if (catalogue.kindOf(c) !== "component")
          err(`${at}.x-components`, `${label}: '${c}' is not a component`);
        else if (reaches(c, self.apiName, catalogue))
          err(`${at}.x-components`, `${label}: a component cannot contain itself`);
      }
    }
    if (f.default !== undefined && f.default !== null) {
      const problem = valueProblem(kind, f, f.default);
      if (problem) err(`${at}.default`, `${label}: the default ${problem}`);
    }
  }
  return errors;
}

/** Whether component `from` contains `target` at any depth (or is it). */
function reaches(from: string, target: string, catalogue: TypeCatalogue, seen = new Set<string>()): boolean {
  if (from === target) return true;
  if (seen.has(from)) return false;
  seen.add(from);
  const fields = catalogue.component(from)?.properties ?? {};
  return Object.values(fields).some((f) =>
    [f["x-component"], ...(f["x-components"] ?? [])].some(
      (c) => typeof c === "string" && reaches(c, target, catalogue, seen),
    ),
  );
}

/** Why a scalar value does not fit a field's kind (a default, a converted value), or undefined. */
export function valueProblem(kind: FieldKind, f: ContentField, value: unknown): string | undefined {
  switch (kind) {
    case "integer":
      return Number.isInteger(value) ? undefined : "must be a whole number";
    case "decimal":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "must be a number";
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be yes or no";
    case "enum":
      return f.enum?.includes(value as string) ? undefined : "must be one of the choices";
    case "text":
    case "longtext":
    case "richtext":
    case "email":
    case "url":
    case "slug":
    case "date":
    case "datetime":
      return typeof value === "string" ? undefined : "must be text";
    default:
      return undefined;
  }
}

/** A slug from text: lower-case ASCII words joined by single dashes. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 200)
    .replace(/-+$/g, "");
}

/**
 * Whether a field's stored values can become another kind: the same value kept as is, or a
 * conversion every value passes (a number to text). Undefined when they cannot (text to a
 * number), so a kind change over existing values is refused.
 */
export function convertValue(
  from: FieldKind,
  to: ContentField,
  value: unknown,
): { ok: true; value: unknown } | { ok: false } {
  if (value === null || value === undefined) return { ok: true, value: null };
  const kind = to["x-kind"];
  if (from === kind) return { ok: true, value };
  if (TEXTUAL.has(kind) && kind !== "slug" && (TEXTUAL.has(from) || NUMERIC.has(from) || from === "enum"))
    return { ok: true, value: String(value) };
  if (kind === "decimal" && from === "integer") return { ok: true, value };
  if (kind === "integer" && from === "decimal" && Number.isInteger(value)) return { ok: true, value };
  if ((kind === "decimal" || kind === "integer") && typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    if (Number.isFinite(n) && (kind === "decimal" || Number.isInteger(n))) return { ok: true, value: n };
  }
  if (kind === "enum" && typeof value === "string" && to.enum?.includes(value)) return { ok: true, value };
  if (kind === "slug" && typeof value === "string" && new RegExp(SLUG_PATTERN).test(value))
    return { ok: true, value };
  if (kind === "json") return { ok: true, value };
  return { ok: false };
}
