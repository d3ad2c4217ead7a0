/**
 * An expression index per custom field that lists filter by comparison (ARCHITECTURE.md §3:
 * "expression or GIN indexes created for fields marked filterable"). Every custom field is
 * filterable, and a filter on one reads `custom ->> key` (cast as its type compares): without
 * an index, a selective filter and its total scan the whole table (bench/crm-clients.ts
 * measures both). Text, choice, email and web address fields get `(custom ->> 'key')`, numbers
 * `((custom ->> 'key')::numeric)`; PostgreSQL plans a list's bound key as this constant, so the
 * index serves it. Dates (their text-to-date cast is not immutable, so not indexable) and
 * yes/no fields (two values) get none.
 *
 * Indexes are made by a job on the durable queue, enqueued in the transaction that changes a
 * definition: building one on a large table takes a while, and `create index concurrently`
 * (which leaves writes running meanwhile) cannot run inside a transaction. The job reconciles an
 * entity's indexes with its fields — creates the missing, drops those of removed fields or of
 * another type — so running it twice, or after several changes, is harmless.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { ResourceDefinition } from "../../../resources/contract";
import type { CustomFieldType } from "../../../schemas/custom-fields";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { customEntities } from "./custom-entities";

export const INDEX_JOB = "crm.custom-field-indexes";

type Db = Kysely<Database> | Transaction<Database>;

/** How each type's values are indexed (none: not indexed). */
const INDEXED: Partial<Record<CustomFieldType, "t" | "n">> = {
  text: "t",
  enum: "t",
  email: "t",
  url: "t",
  number: "n",
};

/** The index name of a field: `<table>_cf_<key>_<t|n>` (at most 13 + 4 + 40 + 2 characters). */
const indexName = (table: string, key: string, kind: "t" | "n") => `${table}_cf_${key}_${kind}`;

/** Queues the reconciliation of an entity's indexes, in the caller's transaction. */
export function enqueueIndexes(ctx: AppContext, db: Db, entity: string): Promise<string> {
  return ctx.jobs.enqueue(INDEX_JOB, { entity }, { db, key: entity });
}

/**
 * Makes the custom-field indexes of `def`'s table match its fields now. Keys and tables are
 * checked names (lower-case letters, digits, `_`), written into the DDL, which takes no
 * parameters.
 */
export async function reconcileIndexes(
  db: Kysely<Database>,
  def: ResourceDefinition,
  entity: string,
): Promise<void> {
  const table = def.schema["x-table"];
  const fields = await db
    .selectFrom("crm_custom_fields")
    .select(["key", "type"])
    .where("entity", "=", entity)
    .execute();
  const wanted = new Map<string, string>();
  for (const f of fields) {
    const kind = INDEXED[f.type];
    if (!kind || !/^[a-z][a-z0-9_]{0,39}$/.test(f.key)) continue;
    const value = `custom ->> '${f.key}'`;
    wanted.set(indexName(table, f.key, kind), kind === "n" ? `((${value})::numeric)` : `(${value})`);
  }
  const prefix = `${table}_cf_`;
  const present = (
    await sql<{ name: string }>`select indexname as name from pg_indexes
      where tablename = ${table} and left(indexname, ${prefix.length}) = ${prefix}`.execute(db)
  ).rows;
  for (const { name } of present) {
    if (!wanted.has(name)) await sql.raw(`drop index concurrently if exists ${name}`).execute(db);
  }
  const have = new Set(present.map((p) => p.name));
  for (const [name, expression] of wanted) {
    if (have.has(name)) continue;
    try {
      await sql
        .raw(`create index concurrently if not exists ${name} on ${table} (${expression})`)
        .execute(db);
    } catch (error) {
      // A concurrent build that failed leaves an invalid index behind: drop it, the retry builds it again.
      await sql.raw(`drop index if exists ${name}`).execute(db);
      throw error;
    }
  }
}

/** Registers the job's handler on the app's queue. */
export function registerIndexJob(ctx: AppContext): void {
  const entities = customEntities();
  ctx.jobs.register<{ entity: string }>(INDEX_JOB, async ({ payload }) => {
    const def = entities.get(payload.entity);
    if (def) await reconcileIndexes(ctx.db, def, payload.entity);
  });
}
