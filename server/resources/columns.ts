/**
 * How a schema field maps to a column: SQL type, constraints and the list-query type.
 * The migration generator and the drift test both read this, so they cannot disagree.
 */
import type { EntitySchema, FieldSchema } from "../../schemas/contract";
import type { FieldType } from "../http/list-query";

export interface ColumnSpec {
  name: string;
  /** SQL type as written in DDL. */
  sqlType: string;
  /** information_schema.columns.udt_name of that type (drift test). */
  udt: string;
  notNull: boolean;
  default?: string;
  check?: string;
  references?: { table: string; onDelete: "restrict" | "set null" };
}

const quote = (v: string | number) => (typeof v === "number" ? String(v) : `'${v.replace(/'/g, "''")}'`);

function sqlTypeOf(field: FieldSchema): Pick<ColumnSpec, "sqlType" | "udt"> {
  if (field.type === "array") return { sqlType: "jsonb", udt: "jsonb" };
  if (field.type === "boolean") return { sqlType: "boolean", udt: "bool" };
  if (field.type === "integer") return { sqlType: "integer", udt: "int4" };
  if (field.type === "number") {
    return field.multipleOf === 0.01
      ? { sqlType: "numeric(14, 2)", udt: "numeric" }
      : { sqlType: "double precision", udt: "float8" };
  }
  if (field.format === "uuid") return { sqlType: "uuid", udt: "uuid" };
  if (field.format === "date-time") return { sqlType: "timestamptz", udt: "timestamptz" };
  if (field.format === "date") return { sqlType: "date", udt: "date" };
  return { sqlType: "text", udt: "text" };
}

/**
 * Columns of an entity's table, in schema order.
 * @param tableOf resolves a relation's resource name to its table.
 */
export function columnsOf(schema: EntitySchema, tableOf: (resource: string) => string): ColumnSpec[] {
  return Object.entries(schema.properties).map(([name, field]) => {
    // A field with a default always has a value: the engine fills it on create.
    const notNull = schema.required.includes(name) || field.default !== undefined;
    const spec: ColumnSpec = { name, ...sqlTypeOf(field), notNull };
    if (name === "id") Object.assign(spec, { notNull: true, default: "gen_random_uuid()" });
    if (name === "created_at" || name === "updated_at")
      Object.assign(spec, { notNull: true, default: "now()" });
    if (name === "created_by" || name === "updated_by")
      spec.references = { table: "users", onDelete: "set null" };
    if (field.default !== undefined && !Array.isArray(field.default)) {
      spec.default =
        typeof field.default === "boolean" ? String(field.default) : quote(field.default as string | number);
    }
    if (field.enum) spec.check = `${name} in (${field.enum.map(quote).join(", ")})`;
    const relation = field["x-relation"];
    if (relation) spec.references = { table: tableOf(relation.resource), onDelete: "restrict" };
    return spec;
  });
}

/** The list-query type of a field (how filter values are checked and bound). */
export function filterTypeOf(field: FieldSchema): FieldType {
  if (field.type === "integer") return "integer";
  if (field.type === "number") return "number";
  if (field.type === "boolean") return "boolean";
  if (field.format === "date-time" || field.format === "date") return "date";
  if (field.format === "uuid") return "uuid";
  return "string";
}

/** Name of the unique constraint over some fields (also how 409s find their fields). */
export const uniqueName = (table: string, fields: readonly string[]) => `${table}_${fields.join("_")}_key`;

/** A relation whose target must share a field's value (`x-relation.within`). */
export interface ScopedRelation {
  field: string;
  within: string;
  table: string;
  /** The composite foreign key (how a 400 finds its field). */
  constraint: string;
  /** The unique index on the target that the key references. */
  targetIndex: string;
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
      },
    ];
  });
}
