/**
 * CMS entries: a type's records, values in `jsonb`, served through the list contract and
 * checked by the type's schema with the one validator. Every explicit save is a version;
 * an autosave updates the draft only. A save naming an older revision is a conflict, never a
 * silent overwrite. Publishing, versions and schedules are in entry-lifecycle.ts.
 */
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import { slugify } from "../../../schemas/cms-fields";
import { isLocalisedField, localisedValues, mergedLocaleValues } from "../../../schemas/cms-locales";
import { type AjvErrorLike, fieldErrors, invalidInputMessage } from "../../../schemas/error-messages";
import type { AppContext } from "../../context";
import { StatementCache } from "../../db/statements";
import { badRequest, conflict, notFound } from "../../http/errors";
import { canonicalJson } from "../../http/idempotency";
import type { ListQuery } from "../../http/list-query";
import { type EntityWriteOptions, isWatched } from "../../resources/record-events";
import type { AnyDb } from "../../resources/rules";
import { addVersion, deleteVersions, type VersionKind } from "../../versions/versions";
import { cmsEntity, tellEntryChange } from "./entry-changes";
import { checkEntryWrite } from "./entry-checks";
import { entryRows } from "./entry-list";
import { type EntryRow, entryRecord, type Values } from "./entry-record";
import { sanitiseRichText } from "./entry-values";
import { type ContentType, TypeRegistry } from "./type-registry";

export { cmsEntity } from "./entry-changes";
export { type EntryRow, entryRecord } from "./entry-record";

export interface EntryWrite {
  values: Values;
  domainIds?: string[];
  /** The revision the editor started from (a newer one stored is a conflict). */
  revision?: number;
  /** Update the draft without recording a version. */
  autosave?: boolean;
}

/** The resource name of a type's entries (versions, live events, the SPA's resource). */
export const entriesResource = (type: Pick<ContentType, "apiName">) => `entries/${type.apiName}`;

export class EntriesService {
  /** The lists' statements, kept per shape (list-query.ts `listPage`). */
  private readonly statements = new StatementCache();

  constructor(
    private readonly ctx: AppContext,
    private readonly registry: TypeRegistry,
  ) {}

  private get db(): AnyDb {
    return this.ctx.db as unknown as AnyDb;
  }

  /**
   * A type's entries (the default locale's), or with `locale` their variants in that locale,
   * or with `missing` the entries that have none in that locale yet.
   */
  async list(type: ContentType, query: ListQuery & { domain?: string; locale?: string; missing?: string }) {
    const { rows, total, totalExact } = await entryRows(this.db, this.registry, this.statements, type, query);
    return { data: await this.records(type, rows as EntryRow[]), total, totalExact };
  }

  /**
   * Rows as the admin API answers them; a variant's shared fields shown as its entry's (what
   * the locale delivers), read for all of a page's variants at once.
   */
  async records(type: ContentType, rows: readonly EntryRow[]): Promise<Values[]> {
    const sources = [...new Set(rows.flatMap((r) => (r.source_id ? [r.source_id] : [])))];
    const shared = Object.entries(type.schema.properties).filter(([, f]) => !isLocalisedField(f));
    if (!sources.length || !shared.length) return rows.map((r) => entryRecord(type, r));
    const entries = await this.db
      .selectFrom("cms_entries")
      .select(["id", "data"])
      .where("id", "in", sources)
      .execute();
    const dataOf = new Map(entries.map((e) => [e.id as string, e.data as Values]));
    return rows.map((r) => {
      const record = entryRecord(type, r);
      const data = r.source_id ? dataOf.get(r.source_id) : undefined;
      if (data) for (const [name] of shared) record[name] = data[name] ?? null;
      return record;
    });
  }

  async row(type: ContentType, id: string, db: AnyDb = this.db, lock = false): Promise<EntryRow> {
    let q = db.selectFrom("cms_entries").selectAll().where("id", "=", id).where("type_id", "=", type.id);
    if (lock) q = q.forUpdate();
    const row = (await q.executeTakeFirst()) as EntryRow | undefined;
    if (!row) throw notFound(`${type.name} entry not found`);
    return row;
  }

  async get(type: ContentType, id: string): Promise<Values> {
    const [record] = await this.records(type, [await this.row(type, id)]);
    return record as Values;
  }

  /**
   * An entry's values checked as `validate` does; a variant's with its entry's shared values
   * (what the locale shows of them), keeping its localised fields only.
   */
  async checkedValues(db: AnyDb, type: ContentType, row: Pick<EntryRow, "source_id">, values: Values) {
    if (!row.source_id) return this.validate(type, values);
    const entry = await this.row(type, row.source_id, db);
    const props = type.schema.properties;
    const merged = mergedLocaleValues(props, this.current(type, entry.data), values);
    return localisedValues(props, await this.validate(type, merged));
  }

  /** Checks values against the type (the one validator) and normalises them: defaults, slug, rich text. */
  async validate(type: ContentType, values: Values): Promise<Values> {
    const out = structuredClone(values);
    this.fillSlug(type, out);
    const validate = await this.registry.validatorOf(type);
    if (!validate(out)) {
      const details = fieldErrors((validate.errors ?? []) as AjvErrorLike[]);
      throw badRequest(invalidInputMessage(details), details);
    }
    sanitiseRichText(type.schema.properties, out, this.registry);
    return out;
  }

  private fillSlug(type: ContentType, values: Values): void {
    for (const [name, f] of Object.entries(type.schema.properties)) {
      const from = f["x-slugFrom"];
      if (f["x-kind"] !== "slug" || !from) continue;
      const source = values[from];
      if (
        (values[name] === undefined || values[name] === null || values[name] === "") &&
        typeof source === "string"
      )
        values[name] = slugify(source) || null;
    }
  }

  /** The slug field's value, kept in its own column for public lookups. */
  slugOf(type: ContentType, values: Values): string | null {
    const name = Object.keys(type.schema.properties).find(
      (n) => type.schema.properties[n]["x-kind"] === "slug",
    );
    const value = name ? values[name] : undefined;
    return typeof value === "string" && value ? value : null;
  }

  /** Rules a schema cannot hold (entry-checks.ts). */
  checkWrite(
    db: AnyDb,
    type: ContentType,
    id: string | null,
    values: Values,
    domainIds: string[],
    locale: string | null = null,
  ): Promise<void> {
    return checkEntryWrite(db, this.registry, type, id, values, domainIds, locale);
  }

  async create(
    type: ContentType,
    write: EntryWrite,
    actorId: string | null,
    via?: EntityWriteOptions,
  ): Promise<Values> {
    const values = await this.validate(type, write.values);
    const domainIds = [...new Set(write.domainIds ?? [])];
    const watched = await isWatched(this.ctx, cmsEntity(type), "created");
    const row = await this.inTransaction(via, async (trx) => {
      await this.checkWrite(trx, type, null, values, domainIds);
      const row = await this.insertEntry(trx, type, values, domainIds, actorId);
      if (watched) await tellEntryChange(this.ctx, trx, type, "created", null, row, actorId, via);
      return row;
    });
    this.changed(type, "created", [row.id], actorId);
    return entryRecord(type, row);
  }

  /**
   * Inserts an entry (or, with `variant`, a locale's version of one) as its first version:
   * a create and a locale's start both go through here.
   */
  async insertEntry(
    trx: AnyDb,
    type: ContentType,
    values: Values,
    domainIds: readonly string[],
    actorId: string | null,
    variant?: { locale: string; sourceId: string },
  ): Promise<EntryRow> {
    const inserted = (await trx
      .insertInto("cms_entries")
      .values({
        type_id: type.id,
        domain_ids: sql`${sql.val(domainIds)}::uuid[]`,
        data: JSON.stringify(values),
        slug: this.slugOf(type, values),
        ...(variant ? { locale: variant.locale, source_id: variant.sourceId } : {}),
        version: 1,
        created_by: actorId,
        updated_by: actorId,
      })
      .returningAll()
      .executeTakeFirstOrThrow()) as EntryRow;
    await addVersion(trx, {
      resource: entriesResource(type),
      recordId: inserted.id,
      number: 1,
      kind: "save",
      data: values,
      actorId,
    });
    return inserted;
  }

  async update(
    type: ContentType,
    id: string,
    write: EntryWrite,
    actorId: string | null,
    via?: EntityWriteOptions,
  ): Promise<Values> {
    const watched = await isWatched(this.ctx, cmsEntity(type), "updated");
    const row = await this.inTransaction(via, async (trx) => {
      const existing = await this.row(type, id, trx, true);
      if (write.revision !== undefined && write.revision !== existing.revision)
        throw await this.conflictOf(trx, type, existing);
      const values = await this.checkedValues(trx, type, existing, {
        ...this.current(type, existing.data),
        ...write.values,
      });
      // A locale's variant is delivered where its entry is: it follows the entry's domains.
      const domainIds =
        write.domainIds && !existing.source_id ? [...new Set(write.domainIds)] : existing.domain_ids;
      await this.checkWrite(trx, type, id, values, domainIds, existing.locale);
      if (!existing.source_id && write.domainIds)
        await trx
          .updateTable("cms_entries")
          .set({ domain_ids: sql`${sql.val(domainIds)}::uuid[]` })
          .where("source_id", "=", id)
          .execute();
      const version = write.autosave ? existing.version : existing.version + 1;
      const written = await this.writeEntry(
        trx,
        type,
        id,
        {
          data: JSON.stringify(values),
          domain_ids: sql`${sql.val(domainIds)}::uuid[]`,
          slug: this.slugOf(type, values),
          version,
          draft_changed: this.draftChanged(type, existing, values),
          updated_by: actorId,
        },
        write.autosave ? undefined : { number: version, kind: "save", data: values, actorId },
      );
      if (watched) await tellEntryChange(this.ctx, trx, type, "updated", existing, written, actorId, via);
      return written;
    });
    this.changed(type, "updated", [id], actorId);
    return (await this.records(type, [row]))[0] as Values;
  }

  /**
   * Writes an entry's columns (its revision and `updated_at` move on) and, when given, records
   * the version the write makes: saves, publishes and restores all go through here.
   */
  async writeEntry(
    trx: AnyDb,
    type: ContentType,
    id: string,
    set: Values,
    version?: { number: number; kind: VersionKind; data: Values; actorId: string | null },
  ): Promise<EntryRow> {
    const row = (await trx
      .updateTable("cms_entries")
      .set({ ...set, revision: sql`revision + 1`, updated_at: sql`now()` })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow()) as EntryRow;
    if (version) await addVersion(trx, { resource: entriesResource(type), recordId: id, ...version });
    return row;
  }

  /** Stored values of the type's current fields only (a removed field's value is gone). */
  current(type: ContentType, data: Values): Values {
    const out: Values = {};
    for (const name of Object.keys(type.schema.properties))
      if (data[name] !== undefined) out[name] = data[name];
    return out;
  }

  /**
   * Whether a draft's values differ from the published copy, by content (keys in any order):
   * a save or restore that brings the draft back to what is live leaves nothing to publish.
   * Never published, or unpublished: there is always something to publish.
   */
  draftChanged(type: ContentType, existing: EntryRow, values: Values): boolean {
    if (existing.status !== "published" || !existing.published) return true;
    return (
      canonicalJson(this.current(type, existing.published)) !== canonicalJson(this.current(type, values))
    );
  }

  /** 409 naming who saved the newer revision, and when. */
  async conflictOf(db: AnyDb, type: ContentType, existing: EntryRow) {
    const who = existing.updated_by
      ? await db
          .selectFrom("users")
          .select(["first_name", "last_name"])
          .where("id", "=", existing.updated_by)
          .executeTakeFirst()
      : undefined;
    const name = who ? `${who.first_name} ${who.last_name}`.trim() : "someone else";
    return conflict(
      `This ${type.name.toLowerCase()} entry was changed by ${name} since you opened it. Reload it, or compare your changes with theirs.`,
      [{ field: "revision", message: `The stored revision is ${existing.revision}` }],
    );
  }

  async remove(type: ContentType, ids: string[], actorId: string, mustExist: boolean): Promise<number> {
    const watched = await isWatched(this.ctx, cmsEntity(type), "deleted");
    const deleted = await this.db.transaction().execute(async (trx) => {
      // An entry's variants go with it (by foreign key): their versions too.
      const variants = await trx
        .selectFrom("cms_entries")
        .select("id")
        .where("source_id", "in", ids)
        .execute();
      const query = trx.deleteFrom("cms_entries").where("type_id", "=", type.id).where("id", "in", ids);
      const rows = watched ? await query.returningAll().execute() : await query.returning("id").execute();
      const gone = rows.map((r) => r.id as string);
      for (const row of watched ? rows : [])
        await tellEntryChange(this.ctx, trx, type, "deleted", row as EntryRow, null, actorId);
      await deleteVersions(trx, entriesResource(type), [
        ...gone,
        ...variants.map((v) => v.id as string).filter((v) => !gone.includes(v)),
      ]);
      return gone;
    });
    if (mustExist && !deleted.length) throw notFound(`${type.name} entry not found`);
    if (deleted.length) this.changed(type, "deleted", deleted, actorId);
    return deleted.length;
  }

  /** A write joins the caller's transaction (`via`, an automation's step), else has its own. */
  private inTransaction<T>(
    via: EntityWriteOptions | undefined,
    work: (trx: AnyDb) => Promise<T>,
  ): Promise<T> {
    return via ? work(via.db) : this.db.transaction().execute(work);
  }

  changed(
    type: ContentType,
    kind: "created" | "updated" | "deleted",
    ids: string[],
    actorId: string | null,
  ): void {
    this.ctx.events?.publish({
      resource: entriesResource(type),
      moduleID: MODULE_IDS.cms,
      type: kind,
      ids,
      actorId: actorId ?? "",
    });
  }
}

export { TypeRegistry };
