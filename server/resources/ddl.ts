/**
 * Generates an entity's CREATE TABLE from its schema: real columns for every field,
 * foreign keys for relations, unique constraints, indexes for filter and sort fields.
 * The output is pasted into a migration and reviewed (scripts/generate-migration.ts).
 */
import type { EntitySchema } from "../../schemas/contract";
import { columnsOf, scopedRelationsOf, uniqueName } from "./columns";

export function createTableSql(schema: EntitySchema, tableOf: (resource: string) => string): string {
  const table = schema["x-table"];
  const columns = columnsOf(schema, tableOf);
  const lines = columns.map((c) => {
    let line = `  ${c.name} ${c.sqlType}`;
    if (c.name === "id") line += " primary key";
    if (c.notNull && c.name !== "id") line += " not null";
    if (c.default) line += ` default ${c.default}`;
    if (c.references) line += ` references ${c.references.table}(id) on delete ${c.references.onDelete}`;
    if (c.check) line += ` check (${c.check})`;
    return line;
  });
  for (const fields of schema["x-unique"] ?? []) {
    lines.push(`  constraint ${uniqueName(table, fields)} unique (${fields.join(", ")})`);
  }
  const statements: string[] = [];
  for (const r of scopedRelationsOf(schema, tableOf)) {
    // A foreign key needs a unique index on the columns it references.
    statements.push(`create unique index if not exists ${r.targetIndex} on ${r.table} (id, ${r.within});`);
    lines.push(
      `  constraint ${r.constraint} foreign key (${r.field}, ${r.within}) references ${r.table} (id, ${r.within}) on delete restrict`,
    );
  }
  statements.push(`create table ${table} (\n${lines.join(",\n")}\n);`);
  const uniqueLeads = new Set((schema["x-unique"] ?? []).map((f) => f[0]));
  for (const field of schema["x-filterable"]) {
    if (field === "id" || uniqueLeads.has(field)) continue; // a unique constraint already indexes it
    statements.push(`create index ${table}_${field}_idx on ${table} (${field});`);
  }
  return statements.join("\n");
}
