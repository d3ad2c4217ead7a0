/** Conversions between database rows and API records, and body schemas, derived from a schema. */
import type { EntitySchema, FieldSchema } from "../../schemas/contract";

export type Row = Record<string, unknown>;

/** A row as the API answers it: every schema field present, numbers as numbers, times as ISO text. */
export function toRecord(schema: EntitySchema, row: Row): Row {
  const out: Row = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const value = row[name];
    if (value === null || value === undefined) out[name] = null;
    else if (field.type === "number" || field.type === "integer") out[name] = Number(value);
    else if (value instanceof Date)
      out[name] = field.format === "date" ? value.toISOString().slice(0, 10) : value.toISOString();
    else if (field.type === "array" && typeof value === "string") out[name] = JSON.parse(value);
    else out[name] = value;
  }
  return out;
}

/** A validated body as column values (arrays as JSON text for jsonb). */
export function toColumns(schema: EntitySchema, body: Row): Row {
  const out: Row = {};
  for (const [name, value] of Object.entries(body)) {
    const field = schema.properties[name];
    if (!field || field.readOnly) continue;
    out[name] = field.type === "array" && value !== null ? JSON.stringify(value) : value;
  }
  return out;
}

const ENGINE_KEYS = /^x-/;

function jsonSchemaOf(field: FieldSchema, nullable: boolean, withDefault = true): Record<string, unknown> {
  const clean = Object.fromEntries(
    Object.entries(field).filter(
      ([k]) => !ENGINE_KEYS.test(k) && k !== "readOnly" && (withDefault || k !== "default"),
    ),
  );
  if (!nullable) return clean;
  // An optional field may be cleared with null.
  if (clean.enum) return { ...clean, type: [field.type, "null"], enum: [...(clean.enum as unknown[]), null] };
  return { ...clean, type: [field.type, "null"] };
}

/**
 * Whether a field may be cleared with null: the same rule as the column's NOT NULL
 * (server/resources/columns.ts), so a body the schema accepts is one the table accepts.
 */
function isNullable(schema: EntitySchema, name: string): boolean {
  return !schema.required.includes(name) && schema.properties[name]?.default === undefined;
}

/** Body schema of create (required fields required) or update (any writable subset). */
export function bodySchemaOf(schema: EntitySchema, mode: "create" | "update") {
  const properties: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field.readOnly) continue;
    // Defaults fill a new record only: on update they would overwrite stored values.
    properties[name] = jsonSchemaOf(field, isNullable(schema, name), mode === "create");
  }
  return {
    type: "object",
    additionalProperties: false,
    properties,
    ...(mode === "create"
      ? { required: schema.required.filter((f) => !schema.properties[f]?.readOnly) }
      : { minProperties: 1 }),
  };
}

/** Response schema of one record, for the OpenAPI document. */
export function recordSchemaOf(schema: EntitySchema) {
  const properties: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) properties[name] = jsonSchemaOf(field, true);
  return { type: "object", properties };
}
