/**
 * SQL of an entity's table (table-model.ts): its CREATE TABLE, and each piece on its own so
 * a change (table-diff.ts) adds exactly what the create would have had. Written into a
 * migration by `npm run migration:new` and reviewed there.
 */
import type { EntitySchema } from "../../schemas/contract";
import type {
  CheckModel,
  ColumnModel,
  ForeignKeyModel,
  IndexModel,
  TableModel,
  UniqueModel,
} from "./table-model";
import { tableModelOf } from "./table-model";

/** A column as in CREATE TABLE or ADD COLUMN: `name type [primary key] [not null] [default x]`. */
export function columnSql(c: ColumnModel): string {
  let sql = `${c.name} ${c.type}`;
  if (c.primaryKey) sql += " primary key";
  else if (c.notNull) sql += " not null";
  if (c.default !== undefined) sql += ` default ${c.default}`;
  return sql;
}

export const checkSql = (c: CheckModel) => `constraint ${c.name} check (${c.expression})`;

export const uniqueSql = (u: UniqueModel) => `constraint ${u.name} unique (${u.columns.join(", ")})`;

export function foreignKeySql(k: ForeignKeyModel): string {
  const action = k.setNull?.length ? `set null (${k.setNull.join(", ")})` : k.onDelete;
  return (
    `constraint ${k.name} foreign key (${k.columns.join(", ")}) ` +
    `references ${k.table} (${k.references.join(", ")}) on delete ${action}`
  );
}

/**
 * An index as a statement. One on another table (a scoped key's target) may already be there
 * for another entity's key, hence `if not exists`.
 */
export function indexSql(i: IndexModel, ownTable: string): string {
  const columns = i.columns.join(", ");
  if (i.table !== ownTable) return `create unique index if not exists ${i.name} on ${i.table} (${columns});`;
  // pg_trgm is created by migration 0044 (search everywhere), before any table that needs it.
  // New rows wait in a pending list of at most 256 kB, merged into the index in batches: every
  // search reads the list through, and PGlite runs no autovacuum to merge it (the 4 MB default
  // would be read on each search); inserting each row at once (no fastupdate) makes bulk
  // writes several times slower.
  if (i.trigram)
    return `create index ${i.name} on ${i.table} using gin (${columns} gin_trgm_ops) with (gin_pending_list_limit = 256);`;
  return `create ${i.unique ? "unique " : ""}index ${i.name} on ${i.table} (${columns});`;
}

/** CREATE TABLE and its indexes for a table model. */
export function createTableSqlOf(model: TableModel): string {
  const { table } = model;
  const lines = [
    ...model.columns.map(columnSql),
    ...model.checks.map(checkSql),
    ...model.uniques.map(uniqueSql),
    ...model.foreignKeys.map(foreignKeySql),
  ];
  const targets = model.indexes.filter((i) => i.table !== table);
  const own = model.indexes.filter((i) => i.table === table);
  return [
    ...targets.map((i) => indexSql(i, table)),
    `create table ${table} (\n${lines.map((l) => `  ${l}`).join(",\n")}\n);`,
    ...own.map((i) => indexSql(i, table)),
  ].join("\n");
}

/** CREATE TABLE of an entity, from its schema. */
export function createTableSql(schema: EntitySchema, tableOf: (resource: string) => string): string {
  return createTableSqlOf(tableModelOf(schema, tableOf));
}
