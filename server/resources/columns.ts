/**
 * How a schema field maps to a column: SQL type, nullability, default, the check that holds
 * the field's rules, and the foreign key of a relation. The migration generator, the drift
 * test and the engine's error translation all read this, so they cannot disagree.
 */
import {
  allowsNull,
  baseType,
  type EntitySchema,
  type FieldSchema,
  type OnDelete,
} from "../../schemas/contract";
import type { FieldType } from "../http/list-query";

export interface ColumnSpec {
  name: string;
  /** SQL type as written in DDL. */
  sqlType: string;
  /** information_schema.columns.udt_name of that type. */
  udt: string;
  notNull: boolean;
  default?: string;
  /** The field's rules (length, range, enum, items) as one check expression, named by `checkName`. */
  check?: string;
  references?: { table: string; onDelete: OnDelete };
}

/** Names we write into SQL unquoted, so they must need no quoting (and fit PostgreSQL's 63 bytes). */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertIdentifier(name: string, what: string): void {
  if (!IDENTIFIER.test(name)) {
    throw new Error(
      `${what} '${name}' must be lower-case letters, digits and _ (at most 63), to be a column name`,
    );
  }
}

const quote = (v: string | number) =>
  typeof v === "number" ? literalNumber(v) : `'${v.replace(/'/g, "''")}'`;

function literalNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`${n} cannot be written as a SQL number`);
  return String(n);
}

function sqlTypeOf(field: FieldSchema): Pick<ColumnSpec, "sqlType" | "udt"> {
  const type = baseType(field);
  if (type === "array") return { sqlType: "jsonb", udt: "jsonb" };
  if (type === "boolean") return { sqlType: "boolean", udt: "bool" };
  if (type === "integer") return { sqlType: "integer", udt: "int4" };
  if (type === "number") {
    return field.multipleOf === 0.01
      ? { sqlType: "numeric(14, 2)", udt: "numeric" }
      : { sqlType: "double precision", udt: "float8" };
  }
  if (field.format === "uuid") return { sqlType: "uuid", udt: "uuid" };
  if (field.format === "date-time") return { sqlType: "timestamptz", udt: "timestamptz" };
  if (field.format === "date") return { sqlType: "date", udt: "date" };
  if (field.format === "time") return { sqlType: "time", udt: "time" };
  return { sqlType: "text", udt: "text" };
}

/**
 * The field's JSON Schema rules the database can hold, as one check expression. Ajv checks
 * them first (so a client gets per-field messages); the check keeps writes that do not go
 * through the validator (a module's own SQL, a hand-run script) to the same rules. Both
 * count characters the same way: Ajv counts code points, so does char_length in UTF-8.
 * `pattern` stays with Ajv: JavaScript and PostgreSQL regular expressions differ.
 */
function checkOf(name: string, field: FieldSchema, sqlType: string): string | undefined {
  const parts: string[] = [];
  const type = baseType(field);
  if (sqlType === "text") {
    if (field.minLength) parts.push(`char_length(${name}) >= ${literalNumber(field.minLength)}`);
    if (field.maxLength !== undefined)
      parts.push(`char_length(${name}) <= ${literalNumber(field.maxLength)}`);
  }
  if (type === "integer" || type === "number") {
    if (field.minimum !== undefined) parts.push(`${name} >= ${literalNumber(field.minimum)}`);
    if (field.exclusiveMinimum !== undefined)
      parts.push(`${name} > ${literalNumber(field.exclusiveMinimum)}`);
    if (field.maximum !== undefined) parts.push(`${name} <= ${literalNumber(field.maximum)}`);
    if (field.exclusiveMaximum !== undefined)
      parts.push(`${name} < ${literalNumber(field.exclusiveMaximum)}`);
  }
  // The engine stores arrays as JSON arrays (records.ts), so jsonb_array_length always applies.
  if (type === "array" && field.maxItems !== undefined) {
    parts.push(`jsonb_array_length(${name}) <= ${literalNumber(field.maxItems)}`);
  }
  if (field.enum) parts.push(`${name} in (${field.enum.map(quote).join(", ")})`);
  return parts.length ? parts.join(" and ") : undefined;
}

/**
 * Whether a field's column may hold null: when the schema says so (`type: [t, "null"]`), or
 * when a record may lack it (not required, no default). The engine's body schemas follow the
 * same rule, so a body the validator accepts is one the table accepts.
 */
export function columnAllowsNull(schema: EntitySchema, name: string): boolean {
  const field = schema.properties[name];
  if (!field) return true;
  if (allowsNull(field)) return true;
  // A field with a default always has a value: the engine fills it on create.
  return !schema.required.includes(name) && field.default === undefined;
}

const AUDIT_COLUMNS: Record<string, Partial<ColumnSpec>> = {
  id: { notNull: true, default: "gen_random_uuid()" },
  created_at: { notNull: true, default: "now()" },
  updated_at: { notNull: true, default: "now()" },
  created_by: { references: { table: "users", onDelete: "set null" } },
  updated_by: { references: { table: "users", onDelete: "set null" } },
};

/**
 * Columns of an entity's table, in schema order.
 * @param tableOf resolves a relation's resource name to its table.
 */
export function columnsOf(schema: EntitySchema, tableOf: (resource: string) => string): ColumnSpec[] {
  assertIdentifier(schema["x-table"], "x-table");
  const columns = Object.entries(schema.properties).map(([name, field]) => {
    assertIdentifier(name, `${schema["x-table"]}: field`);
    const spec: ColumnSpec = { name, ...sqlTypeOf(field), notNull: !columnAllowsNull(schema, name) };
    if (field.default !== undefined && !Array.isArray(field.default)) {
      spec.default =
        typeof field.default === "boolean" ? String(field.default) : quote(field.default as string | number);
    }
    const check = checkOf(name, field, spec.sqlType);
    if (check) spec.check = check;
    const relation = field["x-relation"];
    if (relation) {
      const onDelete = relation.onDelete ?? "restrict";
      if (onDelete === "set null" && spec.notNull) {
        throw new Error(
          `${schema["x-table"]}.${name}: on delete 'set null' needs a field that may be null (not required, no default)`,
        );
      }
      spec.references = { table: tableOf(relation.resource), onDelete };
    }
    Object.assign(spec, AUDIT_COLUMNS[name]);
    return spec;
  });
  if (schema["x-custom"]) columns.push(CUSTOM_COLUMN);
  return columns;
}

/** The column of an `x-custom` entity's run-time fields (ARCHITECTURE.md §3, runtime entities). */
export const CUSTOM_COLUMN: ColumnSpec = {
  name: "custom",
  sqlType: "jsonb",
  udt: "jsonb",
  notNull: true,
  default: "'{}'::jsonb",
};

/** The list-query type of a field (how filter values are checked and bound). */
export function filterTypeOf(field: FieldSchema): FieldType {
  const type = baseType(field);
  if (type === "integer") return "integer";
  if (type === "number") return "number";
  if (type === "boolean") return "boolean";
  if (field.format === "date-time" || field.format === "date") return "date";
  if (field.format === "time") return "time";
  if (field.format === "uuid") return "uuid";
  return "string";
}

/** Name of the unique constraint over some fields (also how 409s find their fields). */
export const uniqueName = (table: string, fields: readonly string[]) => `${table}_${fields.join("_")}_key`;

/** Name of a relation's foreign key (also how a 400 finds the field of a missing record). */
export const foreignKeyName = (table: string, field: string) => `${table}_${field}_fkey`;

/** Name of the check holding a field's rules (PostgreSQL's own name for a column's check). */
export const checkName = (table: string, field: string) => `${table}_${field}_check`;

/** Name of the index of a filter and sort field. */
export const indexName = (table: string, field: string) => `${table}_${field}_idx`;

/** Name of the trigram index of a searched field (`x-searchable`). */
export const trigramIndexName = (table: string, field: string) => `${table}_${field}_trgm_idx`;

/** A relation whose target must share a field's value (`x-relation.within`). */
export interface ScopedRelation {
  field: string;
  within: string;
  table: string;
  /** The composite foreign key (how a 400 finds its field). */
  constraint: string;
  /** The unique index on the target that the key references. */
  targetIndex: string;
  onDelete: OnDelete;
}

export function scopedRelationsOf(
  schema: EntitySchema,
  tableOf: (resource: string) => string,
): ScopedRelation[] {
  const table = schema["x-table"];
  return Object.entries(schema.properties).flatMap(([field, f]) => {
    const relation = f["x-relation"];
    if (!relation?.within) return [];
    const target = tableOf(relation.resource);
    return [
      {
        field,
        within: relation.within,
        table: target,
        constraint: `${table}_${field}_${relation.within}_fkey`,
        targetIndex: `${target}_id_${relation.within}_key`,
        onDelete: relation.onDelete ?? "restrict",
      },
    ];
  });
}
