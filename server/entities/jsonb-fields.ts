/**
 * Runtime-defined entities (ARCHITECTURE.md §3): records whose fields an admin declares keep
 * their values in a `jsonb` column, and their lists still follow the list contract. This turns
 * a stored schema's fields into what `listPage` needs: for each declared field, the SQL that
 * reads it from the `jsonb` column (the field name bound as a parameter, never written into
 * the text) with the cast its kind compares by, and its filter type. CMS entries use it; CRM
 * custom fields and form submissions read the same way.
 */
import { type Expression, sql } from "kysely";
import type { FieldType } from "../http/list-query";

/** What a field's value is, as JSON Schema says it. */
export interface JsonField {
  type?: unknown;
  format?: unknown;
}

const baseTypeOf = (field: JsonField): string | undefined =>
  Array.isArray(field.type) ? field.type.find((t) => t !== "null") : (field.type as string | undefined);

/** The filter type of a field stored in `jsonb`. */
export function jsonFilterType(field: JsonField): FieldType {
  const type = baseTypeOf(field);
  if (type === "integer") return "integer";
  if (type === "number") return "number";
  if (type === "boolean") return "boolean";
  if (type === "string" && (field.format === "date" || field.format === "date-time")) return "date";
  if (type === "string" && field.format === "uuid") return "uuid";
  return "string";
}

/** The expression reading `name` from the jsonb `column` (such as `t.data`), cast for comparing. */
export function jsonFieldExpression(column: string, name: string, field: JsonField): Expression<unknown> {
  const text = sql`(${sql.ref(column)} ->> ${name})`;
  const type = baseTypeOf(field);
  if (type === "integer" || type === "number") return sql`(${text})::numeric`;
  if (type === "boolean") return sql`(${text})::boolean`;
  if (type === "string" && field.format === "date") return sql`(${text})::date`;
  if (type === "string" && field.format === "date-time") return sql`(${text})::timestamptz`;
  return text;
}

export interface JsonListFields {
  expressions: Record<string, Expression<unknown>>;
  filterFields: Record<string, FieldType>;
}

/** List expressions and filter types of the named fields (scalars only: lists are not compared). */
export function jsonListFields(
  column: string,
  fields: Readonly<Record<string, JsonField>>,
  names: readonly string[],
): JsonListFields {
  const out: JsonListFields = { expressions: {}, filterFields: {} };
  for (const name of names) {
    const field = fields[name];
    if (!field || baseTypeOf(field) === "array" || baseTypeOf(field) === "object") continue;
    out.expressions[name] = jsonFieldExpression(column, name, field);
    out.filterFields[name] = jsonFilterType(field);
  }
  return out;
}
