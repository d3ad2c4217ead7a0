/**
 * What react-jsonschema-form gets for a resource: the schema of its writable fields, a
 * uiSchema derived from the `x-` hints (merged under the resource's own), and the
 * conversions between API records, form data and request bodies. Pure.
 */
import type { RJSFSchema, UiSchema } from "@rjsf/utils";
import type { ResourceDefinition } from "../../resources/contract";
import { allowsNull, baseType, type EntitySchema, type FieldSchema } from "../../schemas/contract";
import { followName, keyRuleOf } from "../lib/key-from-name";
import { relationOf } from "./fields";

export type FormData = Record<string, unknown>;

/** Widget names of the form's registry (form/widgets.ts); replace an entry to change a widget. */
export const RELATION_WIDGET = "relation";
export const MEDIA_WIDGET = "media";
/** Rich text (CMS rich-text fields): the TipTap editor. */
export const RICH_TEXT_WIDGET = "richtext";
/** `date`: a day picker, `DD-MM-YYYY`. */
export const DAY_WIDGET = "day";
/** `date-time`: a day and time picker, `DD-MM-YYYY HH:mm` in local time. */
export const INSTANT_WIDGET = "instant";
/** `time`: a time-of-day picker, `HH:mm`. */
export const TIME_WIDGET = "time-of-day";
/** `x-options`: a select of an admin-managed list's options (many on a list field). */
export const OPTIONS_WIDGET = "options";
/** The heading and kind select of each block of a list of blocks (form/blocks.tsx). */
export const BLOCK_KIND_WIDGET = "block-kind";

/** `ui:options` of an options widget. */
export interface OptionsWidgetOptions {
  list: string;
  multiple?: boolean;
}

/** A relation select that only offers records matching another field of the form. */
export interface RelationDependency {
  /** The form field whose value filters the options (`category_id`). */
  field: string;
  /** The related resource's field compared with it (`category_id` of sub-categories). */
  filterField: string;
}

/** `ui:options` of a relation widget. */
export interface RelationOptions {
  resource: string;
  labelField: string;
  dependsOn?: RelationDependency;
  /** The field holds a list of ids (a select of many). */
  multiple?: boolean;
}

type Resolve = (name: string) => ResourceDefinition | undefined;

/**
 * Nullable fields (`type: [t, "null"]`) that a blank form sends as null: a required one must be
 * sent, and one with a default would otherwise get the default instead of staying empty.
 */
export function nullWhenBlank(schema: EntitySchema): string[] {
  return Object.entries(schema.properties)
    .filter(
      ([name, f]) =>
        !f.readOnly && allowsNull(f) && (schema.required.includes(name) || f.default !== undefined),
    )
    .map(([name]) => name);
}

/**
 * The schema the form edits: the writable fields (no id, no audit fields), the required
 * ones among them, unknown properties rejected as the server does. In the form a blank field
 * is undefined, never null (the bodies below send null where the API needs it), so each field
 * keeps its one type, and a nullable field is never required: blank is its null.
 */
export function formSchemaOf(schema: EntitySchema): RJSFSchema {
  const properties: Record<string, FieldSchema> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (!field.readOnly) properties[name] = { ...field, type: baseType(field) };
  }
  return {
    type: "object",
    additionalProperties: false,
    required: schema.required.filter((name) => name in properties && !allowsNull(schema.properties[name])),
    properties: properties as RJSFSchema["properties"],
  };
}

/**
 * The key fields (`x-keyFrom`) a create form fills from their names: those still empty in the
 * form's first values (a record's existing key is never rewritten).
 */
export function keyFieldsToFill(schema: EntitySchema, initial: FormData): string[] {
  return Object.entries(schema.properties)
    .filter(([name, field]) => field["x-keyFrom"] && !field.readOnly && !initial[name])
    .map(([name]) => name);
}

/**
 * The form's values after an edit, with each of `keys` following its name field the one way
 * every key does (src/lib/key-from-name.ts): while the person has not written a key of their own.
 */
export function withKeysFromNames(
  schema: EntitySchema,
  keys: readonly string[],
  before: FormData,
  after: FormData,
): FormData {
  let out = after;
  for (const key of keys) {
    const field = schema.properties[key];
    const from = field?.["x-keyFrom"];
    if (!from || before[from] === after[from]) continue;
    const next = followName(
      String(before[from] ?? ""),
      String(after[from] ?? ""),
      String(after[key] ?? ""),
      keyRuleOf(field),
    );
    if (next !== undefined) out = { ...out, [key]: next };
  }
  return out;
}

/**
 * The dependency of a relation field on another field of the same form, declared by
 * `x-relation.within` (the database holds it as a composite foreign key): the options are
 * the related records whose `within` field equals this form's. A product's sub-category
 * select thus offers only the sub-categories of the chosen category.
 *
 * @example
 * relationDependency(products, "sub_category_id", resourceByName);
 * // { field: "category_id", filterField: "category_id" }
 */
export function relationDependency(
  def: ResourceDefinition,
  field: string,
  _resolve?: Resolve,
): RelationDependency | undefined {
  const within = relationOf(def.schema.properties[field])?.within;
  return within ? { field: within, filterField: within } : undefined;
}

/** Every relation dependency of a resource's form, by dependent field. */
export function relationDependencies(
  def: ResourceDefinition,
  resolve: Resolve,
): Record<string, RelationDependency> {
  const out: Record<string, RelationDependency> = {};
  for (const name of Object.keys(def.schema.properties)) {
    const dependency = relationDependency(def, name, resolve);
    if (dependency) out[name] = dependency;
  }
  return out;
}

/** Widgets and hints of the string formats (a relation's uuid is a relation select instead). */
const FORMAT_UI: Readonly<Record<string, UiSchema>> = {
  date: { "ui:widget": DAY_WIDGET },
  "date-time": { "ui:widget": INSTANT_WIDGET },
  time: { "ui:widget": TIME_WIDGET },
  email: { "ui:widget": "email", "ui:placeholder": "name@example.com" },
  uri: { "ui:widget": "uri", "ui:placeholder": "https://" },
};

/**
 * The form's uiSchema: widgets from the field hints (`x-multiline` → textarea, enum labels
 * → select labels, `x-relation` → relation select, `x-options` → a select of the list's options, `x-media` → media list, formats → date,
 * date-time and time pickers, email and web address inputs; a nullable yes/no is a select
 * that can be left blank), with the resource's own `uiSchema` applied on top, and no submit
 * button (the page has Save).
 */
export function deriveUiSchema(def: ResourceDefinition, resolve: Resolve): UiSchema {
  const derived: UiSchema = {};
  for (const [name, field] of Object.entries(def.schema.properties)) {
    if (field.readOnly) continue;
    const relation = relationOf(field);
    if (relation) {
      const options: RelationOptions = { resource: relation.resource, labelField: relation.labelField };
      if (baseType(field) === "array") options.multiple = true;
      const dependsOn = relationDependency(def, name, resolve);
      if (dependsOn) options.dependsOn = dependsOn;
      derived[name] = { "ui:widget": RELATION_WIDGET, "ui:options": { ...options } };
    } else if (field["x-options"]) {
      const options: OptionsWidgetOptions = { list: field["x-options"] };
      if (baseType(field) === "array") options.multiple = true;
      derived[name] = { "ui:widget": OPTIONS_WIDGET, "ui:options": { ...options } };
    } else if (field["x-media"]) {
      derived[name] = { "ui:widget": MEDIA_WIDGET };
    } else if (field["x-richText"]) {
      derived[name] = { "ui:widget": RICH_TEXT_WIDGET };
    } else if (field["x-multiline"]) {
      derived[name] = { "ui:widget": "textarea", "ui:options": { rows: 4 } };
    } else if (field.enum && field["x-enumLabels"]) {
      derived[name] = { "ui:enumNames": [...field["x-enumLabels"]] };
    } else if (field.format && FORMAT_UI[field.format]) {
      derived[name] = { ...FORMAT_UI[field.format] };
    } else if (baseType(field) === "boolean" && allowsNull(field)) {
      derived[name] = { "ui:widget": "select" };
    }
  }
  const own = (def.uiSchema ?? {}) as UiSchema;
  const merged: UiSchema = { ...derived, ...own };
  for (const name of Object.keys(derived)) {
    if (own[name] && typeof own[name] === "object") merged[name] = { ...derived[name], ...own[name] };
  }
  merged["ui:submitButtonOptions"] = { norender: true };
  return merged;
}

/** A new record's form data: the schema's defaults (`currency: "INR"`, `status: "draft"`). */
export function defaultsOf(schema: EntitySchema): FormData {
  const data: FormData = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (!field.readOnly && field.default !== undefined) data[name] = structuredClone(field.default);
  }
  return data;
}

/** An API record as form data: writable fields only, unset (`null`) ones left out. */
export function toFormData(record: Record<string, unknown> | undefined, schema: EntitySchema): FormData {
  const data: FormData = {};
  if (!record) return data;
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field.readOnly || record[name] === null || record[name] === undefined) continue;
    data[name] = record[name];
  }
  return data;
}

const isEmpty = (value: unknown) => value === undefined || value === null;

/** The body of a create: the writable fields that have a value, and null for {@link nullWhenBlank}'s. */
export function toCreateBody(data: FormData, schema: EntitySchema): FormData {
  const body: FormData = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (!field.readOnly && !isEmpty(data[name])) body[name] = data[name];
  }
  for (const name of nullWhenBlank(schema)) if (!(name in body)) body[name] = null;
  return body;
}

/**
 * The body of an edit: only the fields that changed; a cleared field is sent as `null`
 * (the API's way to unset an optional field).
 */
export function toUpdateBody(
  data: FormData,
  original: Record<string, unknown>,
  schema: EntitySchema,
): FormData {
  const body: FormData = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field.readOnly) continue;
    const next = data[name] ?? null;
    if (JSON.stringify(next) !== JSON.stringify(original[name] ?? null)) body[name] = next;
  }
  return body;
}

/**
 * After a change, clears a dependent relation whose filter field changed: a sub-category of
 * the old category is no longer a valid choice.
 */
export function clearStaleDependents(
  previous: FormData,
  next: FormData,
  dependencies: Readonly<Record<string, RelationDependency>>,
): FormData {
  let out = next;
  for (const [field, { field: source }] of Object.entries(dependencies)) {
    if (previous[source] !== next[source] && !isEmpty(out[field])) out = { ...out, [field]: undefined };
  }
  return out;
}
