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
 * What is kept: the fields that changed, `{ field: [old, new] }`, values as PostgreSQL's
 * `to_jsonb` gives them; never the audit fields nor a secret (password-, token-, key-like
 * field, `format: password`, `writeOnly`). A custom field (`x-custom` resources) is a field
 * like any other. An update that changes nothing tracked writes no entry, and an empty list,
 * text or object counts as no value (a form that sends `[]` for an empty field changes nothing).
 */
import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";
import type { EntitySchema } from "../../../schemas/contract";
import { CUSTOM, type Row } from "../records";
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
const emptyAsNull = (ref: string) =>
  sql`case when ${sql.raw(ref)} in (${EMPTY}) then null else ${sql.raw(ref)} end`;

/** jsonb_build_object takes at most 100 arguments: fields go in objects of 40, concatenated. */
const CHUNK = 40;

export class HistoryWriter {
  private readonly fields: string[];
  private readonly custom: boolean;

  constructor(
    readonly resource: string,
    private readonly table: string,
    schema: EntitySchema,
  ) {
    this.fields = trackedFields(schema);
    this.custom = Boolean(schema["x-custom"]);
  }

  /** The tracked fields of the row `alias` as one jsonb object (custom fields merged in). */
  private snapshot(alias: string): RawBuilder<unknown> {
    const parts: RawBuilder<unknown>[] = [];
    for (let i = 0; i < this.fields.length; i += CHUNK) {
      const pairs = this.fields
        .slice(i, i + CHUNK)
        .map((f) => sql`${sql.lit(f)}::text, ${sql.ref(`${alias}.${f}`)}`);
      parts.push(sql`jsonb_build_object(${sql.join(pairs)})`);
    }
    if (this.custom) parts.push(sql`coalesce(${sql.ref(`${alias}.${CUSTOM}`)}, '{}'::jsonb)`);
    if (!parts.length) return sql`'{}'::jsonb`;
    return sql.join(parts, sql` || `);
  }

  /** `insert into record_history … select … from w, lateral (<changes>) d`: the `h` CTE. */
  private entries(
    action: "created" | "updated" | "deleted",
    changes: RawBuilder<unknown>,
    who: HistoryActor,
  ) {
    return sql<Row>`(insert into record_history (resource, record_id, action, actor_id, actor, changes)
      select ${sql.lit(this.resource)}, w.id, ${sql.lit(action)}, ${who.actorId}::uuid, ${who.actor ?? null}::text, d.c
      from w cross join lateral (${changes}) d where d.c is not null)`;
  }

  /** A field's values of a new (or deleted) row: its non-null fields. */
  private whole(side: "old" | "new") {
    const pair =
      side === "new" ? sql`jsonb_build_array(null, n.value)` : sql`jsonb_build_array(n.value, null)`;
    return sql`select jsonb_object_agg(n.key, ${pair}) as c
      from jsonb_each(${this.snapshot("w")}) n where n.value not in (${EMPTY})`;
  }

  /** The insert of `values` (one row or many) with its history; answers every column of the rows. */
  insert(db: AnyDb, values: Row | Row[], who: HistoryActor) {
    return db
      .with("w", (qb) => qb.insertInto(this.table).values(values).returningAll())
      .with("h", () => this.entries("created", this.whole("new"), who))
      .selectFrom("w")
      .selectAll();
  }

  /**
   * The update of record `id` (`set`: Kysely's update set, expressions allowed) with its
   * history; `guard`, a condition on the stored row (rules.ts quiet). Answers the row as
   * stored now, with the row before as `__history_before`; none when no row was updated.
   * Parameters in order: `id`, the set's values, the actor's two.
   */
  update(db: AnyDb, id: string, set: Row, who: HistoryActor, guard?: Expression<SqlBool>) {
    const t = this.table;
    return db
      .with(
        "o",
        () =>
          sql`(select ${this.snapshot("s")} as ${sql.ref(BEFORE)}, s.id as ${sql.ref(ID)}
          from ${sql.table(t)} as s where s.id = ${id} for update)`,
      )
      .with("w", (qb) => {
        const update = qb.updateTable(t).set(set).from("o").whereRef(`${t}.id`, "=", `o.${ID}`);
        return (guard ? update.where(guard) : update)
          .returningAll(t)
          .returning(sql.ref(`o.${BEFORE}`).as(BEFORE));
      })
      .with("h", () =>
        this.entries(
          "updated",
          sql`select jsonb_object_agg(key, jsonb_build_array(b.value, n.value)) as c
            from jsonb_each(w.${sql.ref(BEFORE)}) b full join jsonb_each(${this.snapshot("w")}) n using (key)
            where ${emptyAsNull("b.value")} is distinct from ${emptyAsNull("n.value")}`,
          who,
        ),
      )
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
      .with("h", () => this.entries("deleted", this.whole("old"), who))
      .selectFrom("w")
      .selectAll();
  }
}

/** The row without the update's `__history_before` column. */
export function withoutBefore(row: Row): Row {
  if (!(BEFORE in row)) return row;
  const { [BEFORE]: _before, ...rest } = row;
  return rest;
}
