/**
 * The resource contract: what an entity's JSON Schema may say (ARCHITECTURE.md §3).
 * A schema is plain JSON Schema (draft 7 subset Ajv understands) plus `x-` hints that the
 * server engine, the migration generator and the generated screens read. Pure data.
 */

/** The JSON types a field may hold (besides null). */
export type FieldType = "string" | "integer" | "number" | "boolean" | "array";

/** String formats the engine understands: each has a column type, a validator and a widget. */
export type StringFormat = "email" | "uri" | "uuid" | "date" | "date-time" | "time";

/** What a relation's foreign key does when the related record is deleted. */
export type OnDelete = "restrict" | "cascade" | "set null";

/** A field as JSON Schema, with the engine's hints. */
export interface FieldSchema {
  /** One type, or `[type, "null"]` for a field that may hold null explicitly (nullable). */
  type: FieldType | readonly [FieldType, "null"];
  title?: string;
  description?: string;
  format?: StringFormat;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /**
   * What a `pattern` allows, in words said after the title ("may only contain letters…"):
   * the message of a value that does not match, instead of the expression.
   */
  "x-patternMessage"?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  enum?: ReadonlyArray<string | number>;
  default?: string | number | boolean | ReadonlyArray<string>;
  items?: { type: "string"; title?: string; format?: "uri"; maxLength?: number };
  maxItems?: number;
  /** Set by the server, never by a client (id, audit fields): rejected on write. */
  readOnly?: boolean;
  /**
   * Foreign key to another resource (by its `name`); shown as a select of its `labelField`.
   * `within` names a field both records have that must be equal (a sub-category must belong
   * to the product's category): the database enforces it with a composite foreign key, and
   * the form offers only related records matching this record's `within` value.
   */
  "x-relation"?: { resource: string; labelField: string; within?: string; onDelete?: OnDelete };
  /** Labels of enum values, in the same order. */
  "x-enumLabels"?: readonly string[];
  /** The field holds media URLs picked from the asset manager. */
  "x-media"?: boolean;
  /** The field holds asset ids (one, or a list) of the asset manager (CMS media fields). */
  "x-asset"?: boolean;
  /** Multi-line text in forms. */
  "x-multiline"?: boolean;
  /** HTML written in the rich-text editor (the server sanitises it). */
  "x-richText"?: boolean;
  /**
   * The value is one of an admin-managed option list (the CRM's dropdowns: `stage`, `source`,
   * `tag`…), by the option's stable `value`; on an array field, each item is. The list is
   * data, not schema: options are added without a migration, and every write is checked
   * against the list as it is then.
   */
  "x-options"?: string;
  /**
   * Kept by the server for its own use and shown on no screen (a card's ordering key on a
   * board: a large, meaningless number). Also `readOnly`: nobody types it, the server sets it.
   */
  "x-internal"?: boolean;
  /**
   * A number of a record with a currency that is a percentage or an amount as another of its
   * fields says (a proposal's `total_discount_value` by `total_discount_kind`): shown as "10%"
   * when that field is "percent", as money otherwise.
   */
  "x-percentWhen"?: { field: string; value: string };
  /**
   * A key made from another field (a slug from the name): the create form fills it from that
   * field, within this field's pattern and maxLength, until the person edits it
   * (src/lib/key-from-name.ts).
   */
  "x-keyFrom"?: string;
}

/** Whether a field is the server's own (`x-internal`): no list, show page, form or filter shows it. */
export const isInternal = (field: Pick<FieldSchema, "x-internal"> | undefined): boolean =>
  field?.["x-internal"] === true;

/** An entity's schema. `x-table` names its table; every property is a real column. */
export interface EntitySchema {
  $id: string;
  title: string;
  type: "object";
  properties: Readonly<Record<string, FieldSchema>>;
  required: readonly string[];
  additionalProperties: false;
  "x-table": string;
  /** Sort applied when the request names none: one field or a comma list (`-pdfstatus,-created_at`). */
  "x-defaultSort": string;
  /** Columns of the list screen, in order. */
  "x-list": readonly string[];
  /** Fields searched by `q`. */
  "x-searchable": readonly string[];
  /** Fields that may be filtered and sorted. */
  "x-filterable": readonly string[];
  /** Sets of fields that must be unique together (one field: `[["sku_code"]]`). */
  "x-unique"?: ReadonlyArray<readonly string[]>;
  /** The field shown when a record is referenced (select labels, breadcrumbs). */
  "x-label": string;
  /**
   * Admins add fields to this entity at run time (CRM custom fields): the table has a
   * `custom jsonb` column holding their values, and the engine reads the field set named here
   * (the entity's key in the custom-field definitions) on every request.
   */
  "x-custom"?: string;
  /**
   * Set only on a schema made at run time (schemas/custom-fields.ts `withCustomFields`): the
   * properties that are custom fields, whose values the engine keeps in the `custom` column.
   */
  "x-customFields"?: readonly string[];
}

/** A field's JSON type, without the null of a nullable field. */
export function baseType(field: Pick<FieldSchema, "type">): FieldType {
  return typeof field.type === "string" ? field.type : field.type[0];
}

/** Whether the schema itself allows null (`type: [type, "null"]`). */
export function allowsNull(field: Pick<FieldSchema, "type">): boolean {
  return typeof field.type !== "string" && field.type[1] === "null";
}

/** Fields every entity has, set by the engine. */
export const AUDIT_FIELDS = ["id", "created_at", "updated_at", "created_by", "updated_by"] as const;

/** The standard read-only fields, to spread into a schema's properties. */
export const auditProperties = {
  id: { type: "string", format: "uuid", readOnly: true, title: "ID" },
  created_at: { type: "string", format: "date-time", readOnly: true, title: "Created" },
  updated_at: { type: "string", format: "date-time", readOnly: true, title: "Updated" },
  created_by: { type: "string", format: "uuid", readOnly: true, title: "Created by" },
  updated_by: { type: "string", format: "uuid", readOnly: true, title: "Updated by" },
} as const satisfies Record<string, FieldSchema>;

/** Writable fields of a schema (not read-only). */
export function writableFields(schema: EntitySchema): string[] {
  return Object.entries(schema.properties)
    .filter(([, f]) => !f.readOnly)
    .map(([k]) => k);
}
