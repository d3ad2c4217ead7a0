/** Conversions between database rows and API records, and body schemas, derived from a schema. */
import { sql } from "kysely";
import { baseType, type EntitySchema, type FieldSchema } from "../../schemas/contract";
import { instantText } from "../db/instants";
import { columnAllowsNull } from "./columns";

export type Row = Record<string, unknown>;

type Convert = (value: unknown) => unknown;

/** numeric and bigint columns come back as text; the API answers numbers. */
const asNumber: Convert = (value) => Number(value);
/**
 * A timestamptz is an instant: ISO 8601 in UTC. A list page's rows bring it as PostgreSQL's
 * text (`2026-11-29 00:52:14.054+00`, server/db/prepared.ts `instantsAsText`).
 */
const asInstant: Convert = (value) =>
  value instanceof Date
    ? value.toISOString()
    : typeof value === "string" && value.charCodeAt(10) === 32
      ? instantText(value)
      : value;
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

/** Converters by name, for the code toRecordOf writes (a converter's name, never a value, goes in it). */
const CONVERTERS = { asNumber, asJson, asInstant, asDay, asTimeOfDay } as const;
type ConverterName = keyof typeof CONVERTERS;

function converterOf(field: FieldSchema): ConverterName | undefined {
  const type = baseType(field);
  if (type === "number" || type === "integer") return "asNumber";
  if (type === "array") return "asJson";
  if (field.format === "date-time") return "asInstant";
  if (field.format === "date") return "asDay";
  if (field.format === "time") return "asTimeOfDay";
  return undefined;
}

/** The column of an `x-custom` entity's custom field values (server/resources/columns.ts CUSTOM_COLUMN). */
export const CUSTOM = "custom";

type ToRecord = (row: Row) => Row;

/**
 * A field's key in the object literal: its JSON string; `__proto__` computed, since written
 * plainly in a literal it would set the record's prototype instead of a field.
 */
const literalKey = (name: string) =>
  name === "__proto__" ? `[${JSON.stringify(name)}]` : JSON.stringify(name);

/** Each schema's row → record function, written once: toRecord runs for every row of every answer. */
const readers = new WeakMap<EntitySchema, ToRecord>();

/**
 * The function that makes a schema's records: one object literal with every field in the
 * schema's order, so V8 allocates each record with its final shape at once (a loop setting
 * keys one by one, reading them by name, cost a list of 25 rows a tenth of its time in node).
 * Names are written as JSON strings, so no field name can be code.
 */
function toRecordOf(schema: EntitySchema): ToRecord {
  let read = readers.get(schema);
  if (read) return read;
  const custom = schema["x-customFields"] ?? [];
  const fields: string[] = [];
  for (const [name, field] of Object.entries(schema.properties)) {
    if (custom.includes(name)) continue;
    const key = JSON.stringify(name);
    const convert = converterOf(field);
    const value = `r[${key}]`;
    fields.push(`${literalKey(name)}: ${value} == null ? null : ${convert ? `${convert}(${value})` : value}`);
  }
  // Custom fields after the columns, in their own order.
  for (const name of custom) fields.push(`${literalKey(name)}: c[${JSON.stringify(name)}] ?? null`);
  const body = `return function toRecord(r) {
    ${custom.length ? `const c = asJson(r[${JSON.stringify(CUSTOM)}]) ?? {};` : ""}
    return { ${fields.join(", ")} };
  };`;
  read = new Function(...Object.keys(CONVERTERS), body)(...Object.values(CONVERTERS)) as ToRecord;
  readers.set(schema, read);
  return read;
}

/**
 * A row as the API answers it: every schema field present (null when unset), numbers as
 * numbers, instants as ISO text in UTC, days as `YYYY-MM-DD`, times of day as `HH:MM:SS`.
 * Custom fields (values in the `custom` column, stored as the API takes them) are top-level
 * keys beside the others; values of fields no longer defined are not answered.
 */
export function toRecord(schema: EntitySchema, row: Row): Row {
  return toRecordOf(schema)(row);
}

/**
 * A validated body as column values (arrays as JSON text for jsonb). An email address is
 * stored lower-cased: mail systems treat addresses without regard to case, so `Asha@X.com`
 * and `asha@x.com` are one client, one unique key, one upsert match.
 */
export function toColumns(schema: EntitySchema, body: Row): Row {
  const out: Row = {};
  const customFields = schema["x-customFields"];
  let custom: Row | undefined;
  for (const [name, raw] of Object.entries(body)) {
    if (!Object.hasOwn(schema.properties, name)) continue;
    const field = schema.properties[name];
    if (field.readOnly) continue;
    const value = field.format === "email" && typeof raw === "string" ? raw.toLowerCase() : raw;
    if (customFields?.includes(name)) {
      custom ??= {};
      custom[name] = value;
    } else if (baseType(field) === "array" && value !== null) out[name] = JSON.stringify(value);
    else out[name] = value;
  }
  // The custom fields a body sets, as one JSON object: a new record's values, or (updateColumns)
  // the keys an update merges in, null clearing one.
  if (custom) out[CUSTOM] = JSON.stringify(custom);
  return out;
}

/**
 * Column values of an update: toColumns, with the custom fields merged into the stored ones
 * (`custom || {…}`, keys set to null removed) instead of replacing them all.
 */
export function updateColumns(schema: EntitySchema, body: Row): Row {
  const out = toColumns(schema, body);
  if (out[CUSTOM] !== undefined) out[CUSTOM] = mergeCustom(out[CUSTOM] as string);
  return out;
}

/** The `custom` column with a JSON object of keys merged in, nulls (cleared fields) dropped. */
export const mergeCustom = (json: string) => sql`jsonb_strip_nulls(${sql.ref(CUSTOM)} || ${json}::jsonb)`;

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
