/**
 * An entity's table as the database holds it: columns, named checks, unique constraints,
 * foreign keys and indexes, derived from the schema (columns.ts). It is what a migration
 * creates (ddl.ts), what a snapshot records (server/db/snapshots/) and what a change is
 * computed between (table-diff.ts). Every constraint has a name we choose, so a later
 * migration can drop or replace it and the engine can tell which field a violation is about.
 */
import type { EntitySchema, OnDelete } from "../../schemas/contract";
import {
  checkName,
  columnsOf,
  foreignKeyName,
  indexName,
  scopedRelationsOf,
  trigramIndexName,
  uniqueName,
} from "./columns";

export interface ColumnModel {
  name: string;
  /** SQL type as written in DDL ("numeric(14, 2)"). */
  type: string;
  notNull: boolean;
  /** SQL expression. */
  default?: string;
  primaryKey?: true;
}

export interface CheckModel {
  name: string;
  column: string;
  expression: string;
}

export interface UniqueModel {
  name: string;
  columns: string[];
}

export interface ForeignKeyModel {
  name: string;
  columns: string[];
  /** The referenced table and its columns. */
  table: string;
  references: string[];
  onDelete: OnDelete;
  /** With `set null`: only these columns are cleared (a scoped key keeps its `within` column). */
  setNull?: string[];
}

export interface IndexModel {
  name: string;
  /** Usually the entity's own table; a scoped relation's key needs one on its target. */
  table: string;
  columns: string[];
  unique: boolean;
  /**
   * A trigram index (`using gin (column gin_trgm_ops)`, extension pg_trgm): it serves
   * `ilike '%term%'` on an `x-searchable` text field, for the list's `q` and search everywhere.
   */
  trigram?: true;
}

export interface TableModel {
  table: string;
  columns: ColumnModel[];
  checks: CheckModel[];
  uniques: UniqueModel[];
  foreignKeys: ForeignKeyModel[];
  indexes: IndexModel[];
}

/**
 * The table an entity's schema asks for.
 * @param tableOf resolves a relation's resource name to its table.
 * @example
 * tableModelOf(productSchema, (name) => resourceByName(name)!.schema["x-table"]).checks[0]
 * // { name: "products_sku_code_check", column: "sku_code", expression: "char_length(sku_code) >= 1 and …" }
 */
export function tableModelOf(schema: EntitySchema, tableOf: (resource: string) => string): TableModel {
  const table = schema["x-table"];
  const specs = columnsOf(schema, tableOf);
  const columns = specs.map((c): ColumnModel => {
    const column: ColumnModel = { name: c.name, type: c.sqlType, notNull: c.notNull };
    if (c.default !== undefined) column.default = c.default;
    if (c.name === "id") column.primaryKey = true;
    return column;
  });
  const checks = specs.flatMap((c) =>
    c.check ? [{ name: checkName(table, c.name), column: c.name, expression: c.check }] : [],
  );
  const uniques = (schema["x-unique"] ?? []).map((fields) => ({
    name: uniqueName(table, fields),
    columns: [...fields],
  }));
  const scoped = scopedRelationsOf(schema, tableOf);
  const foreignKeys: ForeignKeyModel[] = [
    ...specs.flatMap((c) =>
      c.references
        ? [
            {
              name: foreignKeyName(table, c.name),
              columns: [c.name],
              table: c.references.table,
              references: ["id"],
              onDelete: c.references.onDelete,
            },
          ]
        : [],
    ),
    ...scoped.map((r) => {
      const key: ForeignKeyModel = {
        name: r.constraint,
        columns: [r.field, r.within],
        table: r.table,
        references: ["id", r.within],
        onDelete: r.onDelete,
      };
      // Clearing both columns would also clear this record's own `within` field.
      if (r.onDelete === "set null") key.setNull = [r.field];
      return key;
    }),
  ];
  // A foreign key needs a unique index on the columns it references.
  const indexes: IndexModel[] = scoped.map((r) => ({
    name: r.targetIndex,
    table: r.table,
    columns: ["id", r.within],
    unique: true,
  }));
  // A unique constraint already indexes its leading column.
  const uniqueLeads = new Set(uniques.map((u) => u.columns[0]));
  for (const field of schema["x-filterable"]) {
    if (field === "id" || uniqueLeads.has(field)) continue;
    indexes.push({ name: indexName(table, field), table, columns: [field], unique: false });
  }
  // Searched text (`ilike '%term%'`) is served by a trigram index; a btree cannot serve it.
  const textColumns = new Set(specs.filter((c) => c.sqlType === "text").map((c) => c.name));
  for (const field of schema["x-searchable"]) {
    if (!textColumns.has(field)) continue;
    indexes.push({
      name: trigramIndexName(table, field),
      table,
      columns: [field],
      unique: false,
      trigram: true,
    });
  }
  return { table, columns, checks, uniques, foreignKeys, indexes };
}

/** Tables in an order that creates each after the ones it references among them. */
export function inCreateOrder<T extends { model: TableModel }>(items: readonly T[]): T[] {
  const byTable = new Map(items.map((i) => [i.model.table, i]));
  const done = new Set<string>();
  const out: T[] = [];
  const visit = (item: T, path: Set<string>) => {
    const { table } = item.model;
    // A cycle cannot be created in one go anyway; its CREATE then fails, naming the missing table.
    if (done.has(table) || path.has(table)) return;
    path.add(table);
    for (const key of item.model.foreignKeys) {
      const target = byTable.get(key.table);
      if (target && key.table !== table) visit(target, path);
    }
    done.add(table);
    out.push(item);
  };
  for (const item of items) visit(item, new Set());
  return out;
}
