/**
 * Custom fields (issue 16, spec §3 `customFieldsData`): fields an admin adds at run time to an
 * entity whose schema says `x-custom` (clients, opportunities). A definition is data; this
 * turns it into a field of the same `EntitySchema` format as `schemas/`, and merges the fields
 * into the entity's schema, so the server's engine (validation, storage, lists, CSV, OpenAPI)
 * and the SPA's generated screens (columns, filters, forms) read one schema. Pure.
 */
import { AUDIT_FIELDS, type EntitySchema, type FieldSchema } from "./contract";

export const CUSTOM_FIELD_TYPES = ["text", "number", "date", "enum", "boolean", "email", "url"] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
export const CUSTOM_FIELD_TYPE_LABELS: Readonly<Record<CustomFieldType, string>> = {
  text: "Text",
  number: "Number",
  date: "Date",
  enum: "Choice from a dropdown list",
  boolean: "Yes / no",
  email: "Email address",
  url: "Web address",
};

/** A key: lower-case letters, digits and `_`, starting with a letter (it is a JSON key and an index name part). */
export const CUSTOM_FIELD_KEY_PATTERN = "^[a-z][a-z0-9_]{0,39}$";
/** Custom fields an entity may have at most: each is a column on the list and a key in every record. */
export const MAX_CUSTOM_FIELDS = 50;
/** Longest text a `text` custom field holds. */
export const CUSTOM_TEXT_MAX = 1000;

/** A custom field's definition, as `/crm/custom-fields` answers it. */
export interface CustomField {
  id: string;
  /** The entity's `x-custom` key (`clients`). */
  entity: string;
  key: string;
  label: string;
  type: CustomFieldType;
  /** `enum` only: the dropdown list (`/crm/dropdowns` `list`) whose options it takes. */
  list: string | null;
  required: boolean;
  /** Order on forms, lists and CSV files, lowest first. */
  position: number;
  description: string | null;
}

/** Keys no custom field may take on an entity: its own fields, the audit fields, the `custom` column, `q`. */
export function reservedKeys(schema: EntitySchema): Set<string> {
  return new Set([...Object.keys(schema.properties), ...AUDIT_FIELDS, "custom", "q"]);
}

/**
 * Why `key` cannot name a new custom field of `schema`, or null when it can.
 *
 * @example
 * customKeyProblem(clientSchema, "email"); // "Email is already a field of this record"
 */
export function customKeyProblem(schema: EntitySchema, key: string): string | null {
  if (!new RegExp(CUSTOM_FIELD_KEY_PATTERN).test(key))
    return "Key may only contain lower-case letters, digits and _, and must start with a letter";
  // `constructor`, `toString`…: JavaScript objects answer them for any key lookup.
  if (key in Object.prototype) return `Key '${key}' is a reserved word`;
  if (reservedKeys(schema).has(key)) {
    const title = schema.properties[key]?.title;
    return title ? `${title} is already a field of this record` : `Key '${key}' is reserved`;
  }
  return null;
}

/**
 * The JSON Schema field of a custom field. Optional fields may hold null (sent as null, a value
 * is cleared); a required one must hold a value of its type.
 */
export function customFieldSchema(
  field: Pick<CustomField, "label" | "type" | "list" | "required" | "description">,
): FieldSchema {
  const base = (type: "string" | "number" | "boolean"): Pick<FieldSchema, "type" | "title"> => ({
    type: field.required ? type : [type, "null"],
    title: field.label,
  });
  const description = field.description ? { description: field.description } : {};
  switch (field.type) {
    case "number":
      return { ...base("number"), ...description };
    case "boolean":
      return { ...base("boolean"), ...description };
    case "date":
      return { ...base("string"), format: "date", ...description };
    case "email":
      return { ...base("string"), format: "email", maxLength: 254, ...description };
    case "url":
      return { ...base("string"), format: "uri", maxLength: 2000, ...description };
    case "enum":
      return { ...base("string"), maxLength: 40, "x-options": field.list ?? "", ...description };
    default:
      return {
        ...base("string"),
        maxLength: CUSTOM_TEXT_MAX,
        ...(field.required ? { minLength: 1 } : {}),
        ...description,
      };
  }
}

const byPosition = (a: CustomField, b: CustomField) =>
  a.position - b.position || a.label.localeCompare(b.label) || a.key.localeCompare(b.key);

/**
 * An entity's schema with its custom fields as top-level properties (after its own, in their
 * order): in the list's columns, filterable and sortable, required when they say so, and named
 * in `x-customFields` (their values live in the record's `custom` column). Fields of other
 * entities, and keys the entity already has, are left out. The schema itself when there are none.
 *
 * @example
 * withCustomFields(clientSchema, [{ key: "industry_size", type: "number", … }]).properties.industry_size;
 * // { type: ["number", "null"], title: "Industry size" }
 */
export function withCustomFields(schema: EntitySchema, fields: readonly CustomField[]): EntitySchema {
  const entity = schema["x-custom"];
  const reserved = reservedKeys(schema);
  const own = fields.filter((f) => f.entity === entity && !reserved.has(f.key)).sort(byPosition);
  if (!entity || !own.length) return schema;
  const keys = own.map((f) => f.key);
  return {
    ...schema,
    properties: {
      ...schema.properties,
      ...Object.fromEntries(own.map((f) => [f.key, customFieldSchema(f)])),
    },
    required: [...schema.required, ...own.filter((f) => f.required).map((f) => f.key)],
    "x-list": [...schema["x-list"], ...keys],
    "x-filterable": [...schema["x-filterable"], ...keys],
    "x-customFields": keys,
  };
}

/** Whether `field` of `schema` is a custom field (its value lives in the `custom` column). */
export const isCustomField = (schema: EntitySchema, field: string): boolean =>
  schema["x-customFields"]?.includes(field) ?? false;
