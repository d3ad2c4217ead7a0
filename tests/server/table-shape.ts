/**
 * A table's shape as PostgreSQL itself describes it (columns with type, nullability and
 * default; every constraint's definition; every index), to compare a migrated table with the
 * table the generator would create today. PostgreSQL writes both descriptions, so spelling
 * ("in (…)" vs "= ANY (ARRAY[…])") cannot make two equal tables differ.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { TableModel } from "../../server/resources/table-model";

export interface TableShape {
  columns: string[];
  constraints: string[];
  indexes: string[];
}

// biome-ignore lint/suspicious/noExplicitAny: any database handle; only catalog queries run here.
type Db = Kysely<any> | Transaction<any>;

/** The schema the expected tables are created in; it never outlives its transaction. */
const EXPECTED = "expected_tables";

/** Names print as `expected_tables.x` or `public.x` depending on the search path: not a difference. */
const unqualified = (text: string) => text.replace(new RegExp(`\\b(public|${EXPECTED})\\.`, "g"), "");

export async function tableShape(db: Db, table: string, schema = "public"): Promise<TableShape> {
  const relation = `${schema}.${table}`;
  const columns = await sql<{ name: string; type: string; not_null: boolean; default: string | null }>`
    select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null,
           pg_get_expr(d.adbin, d.adrelid) as default
    from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attrelid = ${relation}::regclass and a.attnum > 0 and not a.attisdropped`.execute(db);
  const constraints = await sql<{ name: string; definition: string }>`
    select conname as name, pg_get_constraintdef(oid) as definition
    from pg_constraint where conrelid = ${relation}::regclass`.execute(db);
  const indexes = await sql<{ definition: string }>`
    select indexdef as definition from pg_indexes where schemaname = ${schema} and tablename = ${table}`.execute(
    db,
  );
  return {
    columns: columns.rows
      .map(
        (c) =>
          `${c.name} ${c.type}${c.not_null ? " not null" : ""}${c.default ? ` default ${c.default}` : ""}`,
      )
      .sort(),
    constraints: constraints.rows.map((c) => `${c.name}: ${unqualified(c.definition)}`).sort(),
    indexes: indexes.rows.map((i) => unqualified(i.definition)).sort(),
  };
}

/**
 * The shapes of some tables as their generated CREATE statements make them: the statements
 * run in a scratch schema inside a transaction that is rolled back, so nothing stays.
 * @param createSql CREATE statements in dependency order (`inCreateOrder`).
 */
export async function expectedShapes(
  db: Kysely<unknown>,
  createSql: readonly string[],
  tables: readonly string[],
): Promise<Map<string, TableShape>> {
  const shapes = new Map<string, TableShape>();
  const rollback = new Error("rollback");
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(`create schema ${EXPECTED}`).execute(trx);
      // Unqualified names in the generated SQL land in the scratch schema; users stays public.
      await sql.raw(`set local search_path to ${EXPECTED}, public`).execute(trx);
      for (const statement of createSql) await sql.raw(statement).execute(trx);
      for (const table of tables) shapes.set(table, await tableShape(trx, table, EXPECTED));
      throw rollback;
    });
  } catch (error) {
    if (error !== rollback) throw error;
  }
  return shapes;
}

/** The tables a set of models touches (their own, and the targets of their scoped keys' indexes). */
export const tablesOf = (models: readonly TableModel[]) => [
  ...new Set(models.flatMap((m) => [m.table, ...m.indexes.map((i) => i.table)])),
];
