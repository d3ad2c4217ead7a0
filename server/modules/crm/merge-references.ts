/**
 * Everything that points at a client, found in the database's own catalogue rather than listed
 * here: every single-column foreign key to `clients(id)` — opportunities, tasks, the timeline,
 * and the tables other parts of the CRM add later (messages, meetings, enrolments) — so a merge
 * moves all of them without knowing them.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../../db";

type Db = Kysely<Database> | Transaction<Database>;

export interface Reference {
  schema: string;
  table: string;
  column: string;
  /** The table has an `id` column (its moved rows can be named in live events). */
  hasId: boolean;
}

/** The single-column foreign keys to `<table>(id)`, in a stable order. */
export async function referencesTo(db: Db, table: string): Promise<Reference[]> {
  const found = await sql<Reference>`
    select n.nspname as "schema", cl.relname as "table", a.attname as "column",
      exists (select 1 from pg_attribute i
        where i.attrelid = c.conrelid and i.attname = 'id' and not i.attisdropped) as "hasId"
    from pg_constraint c
    join pg_class cl on cl.oid = c.conrelid
    join pg_namespace n on n.oid = cl.relnamespace
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    where c.contype = 'f' and c.confrelid = ${table}::regclass and cardinality(c.conkey) = 1
    order by cl.relname, a.attname`.execute(db);
  return found.rows;
}

export interface Moved {
  table: string;
  column: string;
  /** Rows now pointing at the primary. */
  rows: number;
  /** Rows left with a duplicate because the primary already had their like (a unique key). */
  kept: number;
  /** Ids of the moved rows, when the table has ids. */
  ids: string[];
}

/**
 * Points every row of `ref` that points at one of `from` at `to`. A unique key that would
 * break (the primary already has a row such as this one: enrolled in the same sequence) leaves
 * that row with its duplicate; whatever the duplicate's delete then does to it (cascade) is the
 * table's own rule.
 */
export async function moveReferences(
  db: Db,
  ref: Reference,
  from: readonly string[],
  to: string,
): Promise<Moved> {
  const table = sql.id(ref.schema, ref.table);
  const column = sql.id(ref.column);
  const returning = ref.hasId ? sql`returning id::text as id` : sql`returning 1 as id`;
  const moved: Moved = { table: ref.table, column: ref.column, rows: 0, kept: 0, ids: [] };
  await sql`savepoint merge_move`.execute(db);
  try {
    const all = await sql<{ id: string }>`update ${table} set ${column} = ${to}
      where ${column} in (${sql.join(from)}) ${returning}`.execute(db);
    await sql`release savepoint merge_move`.execute(db);
    moved.rows = all.rows.length;
    if (ref.hasId) moved.ids = all.rows.map((r) => r.id);
    return moved;
  } catch (error) {
    if ((error as { code?: string }).code !== "23505") throw error;
    await sql`rollback to savepoint merge_move`.execute(db);
  }
  const rows = await sql<{ tid: string }>`select ctid::text as tid from ${table}
    where ${column} in (${sql.join(from)})`.execute(db);
  for (const { tid } of rows.rows) {
    await sql`savepoint merge_row`.execute(db);
    try {
      const one = await sql<{ id: string }>`update ${table} set ${column} = ${to}
        where ctid = ${tid}::tid ${returning}`.execute(db);
      await sql`release savepoint merge_row`.execute(db);
      moved.rows += one.rows.length;
      if (ref.hasId) moved.ids.push(...one.rows.map((r) => r.id));
    } catch (error) {
      if ((error as { code?: string }).code !== "23505") throw error;
      await sql`rollback to savepoint merge_row`.execute(db);
      moved.kept++;
    }
  }
  return moved;
}
