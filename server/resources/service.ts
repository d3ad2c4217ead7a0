/**
 * The generic operations behind a resource's routes: list, get, create, update, delete.
 * Database errors become answers a person can act on (db-errors.ts). Writes are told to the
 * app's record watcher (automations' record triggers, record-events.ts) in their transaction
 * when it watches them, and may join a caller's transaction (an automation's step).
 */
import type { ResourceDefinition } from "../../resources/contract";
import type { EntitySchema } from "../../schemas/contract";
import { fieldErrors, invalidInputMessage } from "../../schemas/error-messages";
import type { AppContext } from "../context";
import { MAX_SHAPES, StatementCache } from "../db/statements";
import { badRequest, notFound } from "../http/errors";
import { type ListQuery, type ListResult, listPage } from "../http/list-query";
import { compileBody } from "../http/validation";
import { type ScopedRelation, scopedRelationsOf } from "./columns";
import { type CustomFieldCatalogue, customFields } from "./custom-fields";
import { dbErrorInWords } from "./db-errors";
import { type HistoryActor, HistoryWriter } from "./history/writer";
import { listOptionsOf } from "./list-options";
import { optionFieldsOf, optionProblems } from "./options";
import { type EntityWriteOptions, isWatched, type RecordChangeType, recordWatcherOf } from "./record-events";
import { bodySchemaOf, type Row, toColumns, toRecord } from "./records";
import type { AnyDb, Quiet, ResourceRules } from "./rules";

const listBaseOf = (db: AnyDb, table: string) => db.selectFrom(`${table} as t`).selectAll("t");

export class ResourceService {
  readonly table: string;
  private readonly scoped: ScopedRelation[];
  private readonly statements = new StatementCache();
  /** The list pages': their rows only become records, so their instants come as text. */
  private readonly listStatements = new StatementCache({ instantsAsText: true });
  private readonly quietness = new Map<string, Quiet>();
  /** Bodies from elsewhere than a route, checked as the routes check them (`validate`). */
  private readonly validators = new Map<"create" | "update", ReturnType<typeof compileBody>>();
  private base: ReturnType<typeof listBaseOf> | undefined;
  /** The custom fields of an `x-custom` resource; its schema is read per request. */
  private readonly runtime: CustomFieldCatalogue | undefined;
  /** Writes the history of every write, in the write's own statement (history/writer.ts). */
  readonly history: HistoryWriter;

  constructor(
    private readonly ctx: AppContext,
    readonly def: ResourceDefinition,
    private readonly resolve: (name: string) => ResourceDefinition | undefined,
    private readonly rules: ResourceRules,
  ) {
    const { schema } = def;
    this.table = schema["x-table"];
    this.scoped = scopedRelationsOf(schema, (name) => resolve(name)?.schema["x-table"] ?? name);
    this.runtime = schema["x-custom"] ? customFields(ctx) : undefined;
    this.history = new HistoryWriter(def.name, this.table, schema);
  }

  /** The resource's schema now: with its custom fields, for an `x-custom` resource. */
  schemaNow(): Promise<EntitySchema> | EntitySchema {
    return this.runtime ? this.runtime.schemaOf(this.def.schema) : this.def.schema;
  }

  /** The definition with the schema now (CSV routes, OpenAPI). */
  async defNow(): Promise<ResourceDefinition> {
    return this.runtime ? this.runtime.defOf(this.def) : this.def;
  }

  private get db(): AnyDb {
    return this.ctx.db as unknown as AnyDb;
  }

  /** `select t.* from <table> as t`, built once: Kysely's builders are immutable. */
  private get listBase() {
    this.base ??= listBaseOf(this.db, this.table);
    return this.base;
  }

  async list(
    query: ListQuery,
    unpaged = false,
  ): Promise<{ data: Row[]; total: number; totalExact: boolean }> {
    const schema = await this.schemaNow();
    const { rows, total, totalExact }: ListResult<Row> = await listPage(
      this.db,
      this.listBase,
      query,
      unpaged ? { ...listOptionsOf(schema), unpaged } : listOptionsOf(schema),
      this.listStatements,
    );
    return { data: rows.map((r) => toRecord(schema, r)), total, totalExact };
  }

  async get(id: string): Promise<Row> {
    const schema = await this.schemaNow();
    const query = this.statements.query("get", [id], () =>
      this.db.selectFrom(this.table).selectAll().where("id", "=", id),
    );
    const [row] = (await this.db.executeQuery<Row>(query)).rows;
    if (!row) throw notFound(`${this.def.singular} not found`);
    return toRecord(schema, row);
  }

  /**
   * What the route could not check: an `x-custom` resource's body against its schema now (its
   * custom fields), then, on any resource, `x-options` values against their lists now.
   */
  private async checkBody(
    schema: EntitySchema,
    mode: "create" | "update",
    body: Row,
    existing?: () => Promise<Row | null>,
  ): Promise<void> {
    this.runtime?.validate(schema, mode, body);
    if (!optionFieldsOf(schema).length) return;
    const [details] = await optionProblems(this.db, schema, [{ body, existing }]);
    if (details.length) throw badRequest(invalidInputMessage(details), details);
  }

  // The writes below pass their steps as inline functions and methods, not as named local
  // functions: tsx (esbuild keepNames) gives each named closure a defineProperty call, on
  // every request.

  async create(body: Row, actorId: string | null, via?: EntityWriteOptions): Promise<Row> {
    const schema = await this.schemaNow();
    if (via) this.validate(schema, "create", body);
    await this.checkBody(schema, "create", body);
    const values = { ...toColumns(schema, body), created_by: actorId, updated_by: actorId };
    const who: HistoryActor = { actorId, actor: via?.actor };
    // A watched write (an automation's record trigger) runs in a transaction, told in it.
    const watched = await this.watched("created");
    const row = await this.write(
      async (trx) => {
        const set: Row = {};
        await this.rules.beforeWrite?.({ db: trx, existing: null, values: body, set });
        const row = await this.history.insertRow(trx, { ...values, ...set }, who);
        await this.rules.afterWrite?.({
          db: trx,
          existing: null,
          row,
          actorId,
          app: this.ctx,
          cause: via?.cause,
        });
        if (watched) await this.tell(trx, schema, "created", null, row, actorId, via);
        return row;
      },
      !watched && this.quiet("create", body) === true
        ? (db) => this.history.insertRow(db, values, who)
        : undefined,
      via?.db,
    );
    this.publish("created", [row.id as string], actorId);
    return toRecord(schema, row);
  }

  /** `publish: false`: the caller sends one live change for many records (bulk edit). */
  async update(
    id: string,
    body: Row,
    actorId: string | null,
    via?: EntityWriteOptions,
    publish = true,
  ): Promise<Row> {
    const schema = await this.schemaNow();
    if (via) this.validate(schema, "update", body);
    await this.checkBody(schema, "update", body, () =>
      (via?.db ?? this.db)
        .selectFrom(this.table)
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst()
        .then((r) => r ?? null),
    );
    const values = { ...toColumns(schema, body), updated_by: actorId };
    const who: HistoryActor = { actorId, actor: via?.actor };
    const watched = await this.watched("updated");
    const quiet = watched || via ? false : this.quiet("update", body);
    // Guarded by the rules' condition: no row back when it does not hold (or no such record).
    const guarded =
      typeof quiet === "object"
        ? await this.write(this.never, (db) => this.history.updateRow(db, id, values, who, quiet))
        : null;
    const row =
      guarded ??
      (await this.write(
        async (trx) => {
          const existing = await trx
            .selectFrom(this.table)
            .selectAll()
            .where("id", "=", id)
            .forUpdate()
            .executeTakeFirst();
          if (!existing) throw notFound(`${this.def.singular} not found`);
          const set: Row = {};
          await this.rules.beforeWrite?.({ db: trx, existing, values: body, set });
          const row = await this.history.updateRow(trx, id, { ...values, ...set }, who);
          if (!row) throw notFound(`${this.def.singular} not found`);
          await this.rules.afterWrite?.({
            db: trx,
            existing,
            row,
            actorId,
            app: this.ctx,
            cause: via?.cause,
          });
          if (watched) await this.tell(trx, schema, "updated", existing, row, actorId, via);
          return row;
        },
        quiet === true
          ? async (db) => {
              const row = await this.history.updateRow(db, id, values, who);
              if (!row) throw notFound(`${this.def.singular} not found`);
              return row;
            }
          : undefined,
        via?.db,
      ));
    if (publish) this.publish("updated", [id], actorId);
    return toRecord(schema, row);
  }

  /**
   * Whether the app's record watcher watches this resource's writes of `type`: answered from
   * its memory, so a write nobody watches sends no statement more.
   */
  private watched(type: RecordChangeType): boolean | Promise<boolean> {
    return isWatched(this.ctx, this.def.name, type);
  }

  /** Tells the record watcher of a write, in its transaction, with the records as the API shows them. */
  private async tell(
    db: AnyDb,
    schema: EntitySchema,
    type: RecordChangeType,
    before: Row | null,
    after: Row | null,
    actorId: string | null,
    via?: EntityWriteOptions,
  ): Promise<void> {
    await recordWatcherOf(this.ctx)?.changed(db, [
      {
        entity: this.def.name,
        type,
        before: before && toRecord(schema, before),
        after: after && toRecord(schema, after),
        actorId,
        cause: via?.cause ?? null,
      },
    ]);
  }

  /**
   * A body from elsewhere than a route (an automation's step) checked as the route checks it:
   * the one validator, the engine's body schemas, the same words.
   */
  private validate(schema: EntitySchema, mode: "create" | "update", body: Row): void {
    if (this.runtime) return; // checkBody validates an `x-custom` resource's body.
    let check = this.validators.get(mode);
    if (!check) {
      check = compileBody(bodySchemaOf(schema, mode));
      this.validators.set(mode, check);
    }
    if (!check(body)) {
      const details = fieldErrors(check.errors ?? []);
      throw badRequest(invalidInputMessage(details), details);
    }
  }

  /** The first record whose fields equal `match`, oldest first (an automation's "find record"). */
  async findFirst(db: AnyDb, match: Row): Promise<Row | null> {
    const schema = await this.schemaNow();
    const columns = toColumns(schema, match);
    let query = db.selectFrom(this.table).selectAll();
    for (const [column, value] of Object.entries(columns))
      query = value === null ? query.where(column, "is", null) : query.where(column, "=", value);
    const row = await query.orderBy("created_at").orderBy("id").limit(1).executeTakeFirst();
    return row ? toRecord(schema, row as Row) : null;
  }

  /** The transaction of a write that is always sent as one statement. */
  private readonly never = (): Promise<never> => Promise.reject(new Error("sent as one statement"));

  /**
   * Whether the rules leave a write of these fields alone (rules.ts `quiet`): always, without
   * rules. Kept per set of fields, as the statements are.
   */
  private quiet(mode: "create" | "update", body: Row): Quiet {
    const { beforeWrite, afterWrite, quiet } = this.rules;
    if (!beforeWrite && !afterWrite) return true;
    if (!quiet) return false;
    const fields = Object.keys(body);
    const key = `${mode}:${fields}`;
    let answer = this.quietness.get(key);
    if (answer === undefined) {
      answer = quiet(mode, fields);
      if (this.quietness.size < MAX_SHAPES) this.quietness.set(key, answer);
    }
    return answer;
  }

  /** Deletes records; with `mustExist`, a missing one is a 404. Returns how many went. */
  async remove(ids: string[], actorId: string | null, mustExist: boolean, actor?: string): Promise<number> {
    const { afterDelete, beforeDelete } = this.rules;
    const watched = await this.watched("deleted");
    // The rows and their history in one statement (history/writer.ts).
    const del = (db: AnyDb): Promise<Row[]> => this.history.delete(db, ids, { actorId, actor }).execute();
    const deleted =
      beforeDelete || watched
        ? await this.write(async (trx) => {
            await beforeDelete?.({ db: trx, ids, app: this.ctx });
            const rows = await del(trx);
            if (watched && rows.length) {
              const schema = await this.schemaNow();
              await recordWatcherOf(this.ctx)?.changed(
                trx,
                rows.map((row) => ({
                  entity: this.def.name,
                  type: "deleted" as const,
                  before: toRecord(schema, row),
                  after: null,
                  actorId,
                })),
              );
            }
            return rows;
          }, undefined)
        : await this.write(del, del);
    if (afterDelete && deleted.length) {
      await afterDelete(deleted, this.ctx).catch((error: unknown) =>
        this.ctx.log.error({ err: error, resource: this.def.name }, "after-delete rule failed"),
      );
    }
    if (mustExist && !deleted.length) throw notFound(`${this.def.singular} not found`);
    if (deleted.length)
      this.publish(
        "deleted",
        deleted.map((r) => r.id as string),
        actorId,
      );
    return deleted.length;
  }

  private publish(type: "created" | "updated" | "deleted", ids: string[], actorId: string | null) {
    this.ctx.events?.publish({
      resource: this.def.name,
      moduleID: this.def.moduleID,
      type,
      ids,
      actorId: actorId ?? "",
    });
  }

  /**
   * Runs a write and translates constraint violations: `single`, when given, is the one
   * statement the write needs (the rules leave it alone), sent as is, since the constraints
   * hold it together and a begin/commit pair would triple its round trips; else `work` runs
   * in a transaction; `within`, the caller's transaction, which `work` joins.
   */
  private async write<T>(
    work: (trx: AnyDb) => Promise<T>,
    single: ((db: AnyDb) => Promise<T>) | undefined,
    within?: AnyDb,
  ): Promise<T> {
    try {
      // The caller's transaction (an automation's step): the write joins it.
      if (within) return await work(within);
      if (single) return await single(this.db);
      return await this.db.transaction().execute(work);
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** A database error in words (also for writes outside this service: CSV imports). */
  translate(error: unknown): unknown {
    return dbErrorInWords(error, this.def, this.table, this.scoped, this.resolve);
  }
}
