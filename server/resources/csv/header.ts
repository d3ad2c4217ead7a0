/**
 * The columns of a resource's CSV file and how a file's header row maps onto them.
 *
 * An export holds exactly what an import reads back: the key an import matches records by
 * (the ID, when the resource has no single-field unique key) and every writable field, in
 * schema order, titled as the screens title them. Read-only fields (audit times, a PDF's
 * processing state) are left out: the API and the screens show them, and an import could not
 * write them.
 */
import type { ResourceDefinition } from "../../../resources/contract";
import type { EntitySchema, FieldSchema } from "../../../schemas/contract";
import { badRequest, type FieldError } from "../../http/errors";

export interface CsvColumn {
  field: string;
  /** The header cell: the field's title. */
  title: string;
  schema: FieldSchema;
}

/**
 * The field an import matches existing records by: the first single-field unique key
 * (`x-unique`), else `id`.
 *
 * @example
 * keyFieldOf(productSchema); // "sku_code"
 * keyFieldOf(subCategorySchema); // "id" (its only unique key has two fields)
 */
export function keyFieldOf(schema: EntitySchema): string {
  return (schema["x-unique"] ?? []).find((fields) => fields.length === 1)?.[0] ?? "id";
}

const titleOf = (schema: EntitySchema, field: string) => schema.properties[field]?.title ?? field;

/** The columns of a resource's CSV, in order. */
export function csvColumnsOf(schema: EntitySchema): CsvColumn[] {
  const key = keyFieldOf(schema);
  return Object.entries(schema.properties)
    .filter(([name, field]) => !field.readOnly || name === key)
    .map(([name, field]) => ({ field: name, title: titleOf(schema, name), schema: field }));
}

/**
 * Maps a header row onto the resource's columns: each cell names a field by its title or
 * its name, in any case. Refuses (400, one detail per column) cells that name no field, a
 * read-only field, or a field another cell already named.
 */
export function matchHeader(def: ResourceDefinition, header: readonly string[]): CsvColumn[] {
  const { schema } = def;
  const columns = csvColumnsOf(schema);
  const byTitle = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const name of Object.keys(schema.properties)) {
    byTitle.set(titleOf(schema, name).toLowerCase(), name);
    byName.set(name.toLowerCase(), name);
  }
  const problems: FieldError[] = [];
  const seen = new Map<string, number>();
  const matched: CsvColumn[] = [];
  for (const [index, raw] of header.entries()) {
    const cell = raw.trim();
    const name = byTitle.get(cell.toLowerCase()) ?? byName.get(cell.toLowerCase());
    const column = columns.find((c) => c.field === name);
    const first = name === undefined ? undefined : seen.get(name);
    const it = cell ? `Column '${cell}'` : `Column ${index + 1}`;
    const problem = !cell
      ? `${it} has no title`
      : !name
        ? `${it} is not a field of ${def.label.toLowerCase()}`
        : !column
          ? `${it} is read-only and cannot be imported`
          : first !== undefined
            ? `${it} names the same field as column ${first + 1}`
            : undefined;
    if (problem) problems.push({ field: cell || `Column ${index + 1}`, message: problem });
    else if (name && column) {
      seen.set(name, index);
      matched.push(column);
    }
  }
  if (problems.length) {
    throw badRequest(
      `These columns cannot be imported: ${problems.map((p) => p.field).join(", ")}. The columns of ${def.label.toLowerCase()} are ${columns.map((c) => c.title).join(", ")}.`,
      problems,
    );
  }
  return matched;
}
