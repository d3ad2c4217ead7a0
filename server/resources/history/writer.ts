/**
 * The one writer of record history (issue 31): a write of an engine resource's records becomes
 * ONE statement that also writes its history, as data-modifying CTEs:
 *
 *   with w as (insert … returning *),
 *        h as (insert into record_history … select … from w)
 *   select * from w
 *
 * (an update reads the row as it was in a first CTE, locked, and compares it with the row the
 * update returns; a delete keeps the rows it deleted). So history is in the write's own
 * transaction whatever runs it (a single statement, a transaction with the rules, an
 * automation's step, a CSV import's chunk, a store sync's page), costs no round trip, and a
 * batch (a CSV chunk, a bulk delete) writes its history in one multi-row insert.
 *
 * What is kept: an update's fields that changed, `{ field: [old, new] }`; a create's (a
 * delete's) values, `{ field: value }`, empty ones left out; values as PostgreSQL's `to_jsonb`
 * gives them; never the audit fields nor a secret (password-, token-, key-like
 * field, `format: password`, `writeOnly`). A custom field (`x-custom` resources) is a field
 * like any other. An update that changes nothing tracked writes no entry, and an empty list,
 * text or object counts as no value (a form that sends `[]` for an empty field changes nothing).
 */
import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";
import type { EntitySchema } from "../../../schemas/contract";
import { StatementCache } from "../../db/statements";
import { CUSTOM, mergeCustom, type Row } from "../records";
import type { AnyDb } from "../rules";

/** Who or what made a write: a person (`actorId`), or `automation:<id>`, `sync:<id>`, `import`. */
export interface HistoryActor {
  actorId: string | null;
  actor?: string | null;
}

const AUDIT = new Set(["id", "created_at", "updated_at", "created_by", "updated_by"]);
const SECRET_NAME = /pass(word)?|secret|token|api_?key|private_?key|credential/i;

/** Whether a field's values must never be stored in history. */
export function isSecretField(name: string, field: { format?: string; writeOnly?: boolean }): boolean {
  return SECRET_NAME.test(name) || field.format === "password" || field.writeOnly === true;
}

/** The fields history tracks, in schema order (custom fields excepted: they live in one column). */
export function trackedFields(schema: EntitySchema): string[] {
  const custom = new Set(schema["x-customFields"] ?? []);
  return Object.entries(schema.properties)
    .filter(([name, field]) => !AUDIT.has(name) && !custom.has(name) && !isSecretField(name, field))
    .map(([name]) => name);
}

/** Column name of the row before an update, beside the row's own columns in `w`. */
export const BEFORE = "__history_before";
const ID = "__history_id";

/** Values that are no value to a person: none, an empty list, an empty text, an empty object. */
const EMPTY = sql.raw(`'null'::jsonb, '[]'::jsonb, '""'::jsonb, '{}'::jsonb`);
/** A value with "no value" as null: setting an empty list where there was none is no change. */
const emptyAsNull = (value: RawBuilder<unknown>) =>
  sql`case when ${value} in (${EMPTY}) then null else ${value} end`;

/** jsonb_build_object takes at most 100 arguments: fields go in objects of 40, concatenated. */
const CHUNK = 40;

export class HistoryWriter {
  private readonly fields: string[];
  private readonly custom: boolean;
  /** The inserts and updates with their history, kept per set of columns. */
  private readonly statements = new StatementCache();

  constructor(
    readonly resource: string,
    private readonly table: string,
    schema: EntitySchema,
  ) {
    this.fields = trackedFields(schema);
    this.custom = Boolean(schema["x-custom"]);
  }

  /** `fields` of the row `alias` as one jsonb object (with `custom`, the custom fields merged in). */
  private snapshot(alias: string, fields = this.fields, custom = this.custom): RawBuilder<unknown> {
    const parts: RawBuilder<unknown>[] = [];
    for (let i = 0; i < fields.length; i += CHUNK) {
      const pairs = fields
        .slice(i, i + CHUNK)
        .map((f) => sql`${sql.lit(f)}::text, ${sql.ref(`${alias}.${f}`)}`);
      parts.push(sql`jsonb_build_object(${sql.join(pairs)})`);
    }
    if (custom) parts.push(sql`coalesce(${sql.ref(`${alias}.${CUSTOM}`)}, '{}'::jsonb)`);
    if (!parts.length) return sql`'{}'::jsonb`;
    return sql.join(parts, sql` || `);
  }

  /**
   * The `h` CTE: an entry for each row of `w` whose `changes` (an expression over `w`) is not
   * null. One insert for every row of the statement.
   */
  private entries(
    action: "created" | "updated" | "deleted",
    changes: RawBuilder<unknown>,
    who: HistoryActor,
  ) {
    return sql<Row>`(insert into record_history (resource, record_id, action, actor_id, actor, changes)
      select ${sql.lit(this.resource)}, x.id, ${sql.lit(action)}, ${who.actorId}::uuid, ${who.actor ?? null}::text, x.c
      from (select w.id, ${changes} as c from w) x where x.c is not null)`;
  }

  /** A new (or deleted) row's values, `{ field: value }`, its empty fields left out: no aggregate, no join. */
  private whole() {
    return sql`nullif(jsonb_strip_nulls(${this.snapshot("w")}), '{}'::jsonb)`;
  }

  /** The insert of `values` (one row or many) with its history; answers every column of the rows. */
  insert(db: AnyDb, values: Row | Row[], who: HistoryActor) {
    return db
      .with("w", (qb) => qb.insertInto(this.table).values(values).returningAll())
      .with("h", () => this.entries("created", this.whole(), who))
      .selectFrom("w")
      .selectAll();
  }

  /**
   * The update of record `id` (`set`: Kysely's update set, expressions allowed) with its
   * history; `guard`, a condition on the stored row (rules.ts quiet). Answers the row as
   * stored now, with the set fields' values before as `__history_before`; none when no row
   * was updated. Only the fields the update sets are compared (each with a CASE, no join nor
   * aggregate); custom fields key by key. Parameters in order: `id`, the set's values, `id`
   * again, the actor's two.
   */
  update(db: AnyDb, id: string, set: Row, who: HistoryActor, guard?: Expression<SqlBool>) {
    const t = this.table;
    const tracked = new Set(this.fields);
    const fields = Object.keys(set).filter((f) => tracked.has(f));
    const custom = this.custom && CUSTOM in set;
    const before = sql.ref(`w.${BEFORE}`);
    const pairs: RawBuilder<unknown>[] = [];
    for (let i = 0; i < fields.length; i += CHUNK) {
      const items = fields.slice(i, i + CHUNK).map((f) => {
        const was = sql`${before}->${sql.lit(f)}`;
        const now = sql`to_jsonb(${sql.ref(`w.${f}`)})`;
        return sql`${sql.lit(f)}::text, case when ${emptyAsNull(was)} is distinct from ${emptyAsNull(now)} then jsonb_build_array(${was}, ${now}) end`;
      });
      pairs.push(sql`jsonb_build_object(${sql.join(items)})`);
    }
    if (custom)
      pairs.push(sql`coalesce((select jsonb_object_agg(key, jsonb_build_array(b.value, n.value))
        from jsonb_each(coalesce(${before}->${sql.lit(CUSTOM)}, '{}'::jsonb)) b
        full join jsonb_each(coalesce(w.${sql.ref(CUSTOM)}, '{}'::jsonb)) n using (key)
        where ${emptyAsNull(sql`b.value`)} is distinct from ${emptyAsNull(sql`n.value`)}), '{}'::jsonb)`);
    const changes = pairs.length
      ? sql`nullif(jsonb_strip_nulls(${sql.join(pairs, sql` || `)}), '{}'::jsonb)`
      : sql`null::jsonb`;
    const snapshot = custom
      ? sql`${this.snapshot("s", fields, false)} || jsonb_build_object(${sql.lit(CUSTOM)}::text, s.${sql.ref(CUSTOM)})`
      : this.snapshot("s", fields, false);
    return db
      .with(
        "o",
        () =>
          sql`(select ${snapshot} as ${sql.ref(BEFORE)}, s.id as ${sql.ref(ID)}
          from ${sql.table(t)} as s where s.id = ${id} for update)`,
      )
      .with("w", (qb) => {
        // The id again, so the update finds its row by the primary key whatever the plan makes of `o`.
        const update = qb
          .updateTable(t)
          .set(set)
          .from("o")
          .where(`${t}.id`, "=", id)
          .whereRef(`${t}.id`, "=", `o.${ID}`);
        return (guard ? update.where(guard) : update)
          .returningAll(t)
          .returning(sql.ref(`o.${BEFORE}`).as(BEFORE));
      })
      .with("h", () => this.entries("updated", changes, who))
      .selectFrom("w")
      .selectAll();
  }

  /** The delete of records `ids` with their history; answers the rows deleted (every column). */
  delete(db: AnyDb, ids: readonly string[], who: HistoryActor) {
    return db
      .with("w", (qb) =>
        qb
          .deleteFrom(this.table)
          .where("id", "in", ids as string[])
          .returningAll(),
      )
      .with("h", () => this.entries("deleted", this.whole(), who))
      .selectFrom("w")
      .selectAll();
  }

  /** Inserts a row and its history, one statement, kept per set of columns. */
  async insertRow(db: AnyDb, values: Row, who: HistoryActor): Promise<Row> {
    const query = this.statements.query(
      `insert:${Object.keys(values)}`,
      [...Object.values(values), who.actorId, who.actor ?? null],
      () => this.insert(db, values, who),
    );
    return (await db.executeQuery<Row>(query)).rows[0];
  }

  /**
   * Sets `values` and `updated_at` (the database's clock, as for `created_at`). Custom fields
   * are merged into the stored ones (records.ts mergeCustom), their JSON bound in its place.
   * With `guard`, only a row it holds for is updated. Undefined when no row was. Its history
   * is written by the same statement.
   */
  async updateRow(
    db: AnyDb,
    id: string,
    values: Row,
    who: HistoryActor,
    guard?: Expression<SqlBool>,
  ): Promise<Row | undefined> {
    const query = this.statements.query(
      `update${guard ? "?" : ""}:${Object.keys(values)}`,
      [id, ...Object.values(values), id, who.actorId, who.actor ?? null],
      () => {
        const set: Row = { ...values, updated_at: sql`now()` };
        if (typeof values[CUSTOM] === "string") set[CUSTOM] = mergeCustom(values[CUSTOM]);
        return this.update(db, id, set, who, guard);
      },
    );
    const row = (await db.executeQuery<Row>(query)).rows[0];
    return row && withoutBefore(row);
  }
}

/** The row without the update's `__history_before` column. */
export function withoutBefore(row: Row): Row {
  if (!(BEFORE in row)) return row;
  const { [BEFORE]: _before, ...rest } = row;
  return rest;
}
