/** Conversions between database rows and API records, and body schemas, derived from a schema. */
import { baseType, type EntitySchema, type FieldSchema } from "../../schemas/contract";
import { columnAllowsNull } from "./columns";

export type Row = Record<string, unknown>;

type Convert = (value: unknown) => unknown;

/** numeric and bigint columns come back as text; the API answers numbers. */
const asNumber: Convert = (value) => Number(value);
/** A timestamptz is an instant: ISO 8601 in UTC. */
const asInstant: Convert = (value) => (value instanceof Date ? value.toISOString() : value);
/**
 * A `date` is a calendar day, `YYYY-MM-DD`, never an instant: the drivers hand it over as its
 * text (PostgreSQL's pool is set so, server/db/postgres.ts) or, PGlite, as a Date at UTC
 * midnight. Reading it through local time would move it a day east or west of Greenwich.
 */
const asDay: Convert = (value) =>
  value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
/** A `time` column answers `HH:MM:SS` (no zone, no fraction: the format accepts neither). */
const asTimeOfDay: Convert = (value) => String(value).slice(0, 8);
/** jsonb from a driver that hands it over as text. */
const asJson: Convert = (value) => (typeof value === "string" ? JSON.parse(value) : value);

function converterOf(field: FieldSchema): Convert | undefined {
  const type = baseType(field);
  if (type === "number" || type === "integer") return asNumber;
  if (type === "array") return asJson;
  if (field.format === "date-time") return asInstant;
  if (field.format === "date") return asDay;
  if (field.format === "time") return asTimeOfDay;
  return undefined;
}

/** Each schema's fields with their conversion, worked out once: toRecord runs for every row. */
const plans = new WeakMap<EntitySchema, ReadonlyArray<readonly [string, Convert | undefined]>>();

function planOf(schema: EntitySchema) {
  let plan = plans.get(schema);
  if (!plan) {
    plan = Object.entries(schema.properties).map(([name, field]) => [name, converterOf(field)] as const);
    plans.set(schema, plan);
  }
  return plan;
}

/**
 * A row as the API answers it: every schema field present (null when unset), numbers as
 * numbers, instants as ISO text in UTC, days as `YYYY-MM-DD`, times of day as `HH:MM:SS`.
 */
export function toRecord(schema: EntitySchema, row: Row): Row {
  const out: Row = {};
  for (const [name, convert] of planOf(schema)) {
    const value = row[name];
    out[name] = value === null || value === undefined ? null : convert ? convert(value) : value;
  }
  return out;
}

/**
 * A validated body as column values (arrays as JSON text for jsonb). An email address is
 * stored lower-cased: mail systems treat addresses without regard to case, so `Asha@X.com`
 * and `asha@x.com` are one client, one unique key, one upsert match.
 */
export function toColumns(schema: EntitySchema, body: Row): Row {
  const out: Row = {};
  for (const [name, value] of Object.entries(body)) {
    const field = schema.properties[name];
    if (!field || field.readOnly) continue;
    if (baseType(field) === "array" && value !== null) out[name] = JSON.stringify(value);
    else if (field.format === "email" && typeof value === "string") out[name] = value.toLowerCase();
    else out[name] = value;
  }
  return out;
}

/** Hints for the engine only; the message hints stay, since validation errors say them. */
const ENGINE_KEYS = /^x-(?!enumLabels$|patternMessage$)/;

/**
 * A field as plain JSON Schema for Ajv and the OpenAPI document: without the engine's hints,
 * `[type, "null"]` when it may hold null (an enum then lists null too, or null would fail it).
 */
const INT4_MIN = -2147483648;
const INT4_MAX = 2147483647;

function jsonSchemaOf(field: FieldSchema, nullable: boolean, withDefault = true): Record<string, unknown> {
  const clean: Record<string, unknown> = Object.fromEntries(
    Object.entries(field).filter(
      ([k]) => !ENGINE_KEYS.test(k) && k !== "readOnly" && (withDefault || k !== "default"),
    ),
  );
  const type = baseType(field);
  // An `integer` column is PostgreSQL's int4: a bigger number would pass the schema and
  // then fail in the database without naming its field.
  if (type === "integer") {
    clean.minimum = Math.max((clean.minimum as number | undefined) ?? INT4_MIN, INT4_MIN);
    clean.maximum = Math.min((clean.maximum as number | undefined) ?? INT4_MAX, INT4_MAX);
  }
  if (!nullable) return { ...clean, type };
  const out: Record<string, unknown> = { ...clean, type: [type, "null"] };
  if (field.enum && !field.enum.includes(null as never)) out.enum = [...field.enum, null];
  return out;
}

/**
 * Body schema of create (required fields required) or update (any writable subset). A field
 * may be sent as null when its column may hold it (columns.ts `columnAllowsNull`): a nullable
 * field (`type: [t, "null"]`) always, even when required (it must then be sent, null or not),
 * any other field when it is optional and has no default.
 */
export function bodySchemaOf(schema: EntitySchema, mode: "create" | "update") {
  const properties: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field.readOnly) continue;
    // Defaults fill a new record only: on update they would overwrite stored values.
    properties[name] = jsonSchemaOf(field, columnAllowsNull(schema, name), mode === "create");
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

/** Response schema of one record, for the OpenAPI document and the reply serialiser. */
export function recordSchemaOf(schema: EntitySchema) {
  const properties: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) properties[name] = jsonSchemaOf(field, true);
  return { type: "object", properties };
}
