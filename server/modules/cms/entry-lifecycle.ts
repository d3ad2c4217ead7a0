/**
 * An entry's life: draft → published → unpublished, versions (list, compare, restore) and
 * scheduled publish and unpublish, run by the durable job queue so they happen even when the
 * server restarted in between. Publishing copies the draft to `published`, which is all the
 * public API reads: editing a published entry edits its draft, live content stays until the
 * next publish.
 */
import { sql } from "kysely";
import type { FieldError } from "../../../schemas/error-messages";
import { diffValues, type FieldChange } from "../../../schemas/versions";
import type { AppContext } from "../../context";
import { badRequest, HttpError, notFound } from "../../http/errors";
import type { AnyDb } from "../../resources/rules";
import { getVersion, listVersions, type VersionSummary } from "../../versions/versions";
import { type EntriesService, type EntryRow, entriesResource, entryRecord } from "./entries.service";
import { type SchedulePayload, scheduleDone, scheduleFailed } from "./schedule-notices";

export type { SchedulePayload };

import type { ContentType, TypeRegistry } from "./type-registry";

type Values = Record<string, unknown>;

export const SCHEDULE_JOB = "cms.schedule";

/** Tries of a scheduled publish before its scheduler is told it failed. */
export const SCHEDULE_ATTEMPTS = 5;

/** What happens on publish and unpublish besides the entry (webhooks). */
export type LifecycleListener = (
  event: "publish" | "unpublish" | "delete",
  type: ContentType,
  entry: Values,
) => Promise<void>;

/**
 * What happens in the transaction that publishes an entry (automations triggered by "CMS entry
 * published"): it commits with the publish, or neither does. Throwing undoes the publish.
 */
export type PublishingListener = (trx: AnyDb, type: ContentType, entry: Values) => Promise<void>;

export class EntryLifecycle {
  private readonly listeners: LifecycleListener[] = [];
  private readonly publishing: PublishingListener[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly registry: TypeRegistry,
    private readonly entries: EntriesService,
  ) {}

  private get db(): AnyDb {
    return this.ctx.db as unknown as AnyDb;
  }

  onChange(listener: LifecycleListener): void {
    this.listeners.push(listener);
  }

  /** Adds work to every publish's transaction (see PublishingListener). */
  onPublishing(listener: PublishingListener): void {
    this.publishing.push(listener);
  }

  async emit(event: "publish" | "unpublish" | "delete", type: ContentType, entry: Values): Promise<void> {
    for (const listener of this.listeners) {
      await listener(event, type, entry).catch((err: unknown) =>
        this.ctx.log.error({ err, event, entry: entry.id }, "CMS lifecycle listener failed"),
      );
    }
  }

  async publish(
    type: ContentType,
    id: string,
    actorId: string | null,
    revision?: number,
    scheduled?: SchedulePayload,
  ): Promise<Values> {
    const row = await this.db.transaction().execute(async (trx) => {
      const existing = await this.entries.row(type, id, trx, true);
      if (revision !== undefined && revision !== existing.revision)
        throw await this.entries.conflictOf(trx, type, existing);
      // Published content must satisfy the type as it is now.
      const values = await this.entries.checkedValues(
        trx,
        type,
        existing,
        this.entries.current(type, existing.data),
      );
      const version = existing.version + 1;
      const written = await this.entries.writeEntry(
        trx,
        type,
        id,
        {
          data: JSON.stringify(values),
          published: JSON.stringify(values),
          status: "published",
          published_at: sql`now()`,
          publish_at: null,
          draft_changed: false,
          version,
          ...(actorId ? { updated_by: actorId } : {}),
        },
        {
          number: version,
          kind: "publish",
          data: values,
          actorId: actorId ?? (existing.updated_by as string),
        },
      );
      for (const listener of this.publishing) await listener(trx, type, entryRecord(type, written));
      if (scheduled) await scheduleDone(this.ctx, trx, type, written, scheduled);
      return written;
    });
    const record = entryRecord(type, row);
    this.entries.changed(type, "updated", [id], actorId ?? "");
    await this.emit("publish", type, record);
    return record;
  }

  async unpublish(type: ContentType, id: string, actorId: string | null): Promise<Values> {
    const row = (await this.db
      .updateTable("cms_entries")
      .set({
        status: "unpublished",
        published: null,
        unpublish_at: null,
        draft_changed: true,
        revision: sql`revision + 1`,
        updated_at: sql`now()`,
        ...(actorId ? { updated_by: actorId } : {}),
      })
      .where("id", "=", id)
      .where("type_id", "=", type.id)
      .returningAll()
      .executeTakeFirst()) as EntryRow | undefined;
    if (!row) throw notFound(`${type.name} entry not found`);
    const record = entryRecord(type, row);
    this.entries.changed(type, "updated", [id], actorId ?? "");
    await this.emit("unpublish", type, record);
    return record;
  }

  async versions(type: ContentType, id: string): Promise<VersionSummary[]> {
    await this.entries.row(type, id);
    return listVersions(this.db, entriesResource(type), id);
  }

  private async versionData(type: ContentType, id: string, which: number | "current"): Promise<Values> {
    if (which === "current") return (await this.entries.row(type, id)).data;
    const version = await getVersion(this.db, entriesResource(type), id, which);
    if (!version) throw notFound(`Version ${which} of this entry not found`);
    return version.data;
  }

  async version(type: ContentType, id: string, number: number) {
    await this.entries.row(type, id);
    const version = await getVersion(this.db, entriesResource(type), id, number);
    if (!version) throw notFound(`Version ${number} of this entry not found`);
    return version;
  }

  /** Field by field, what changed from one version (or the current draft) to another. */
  async diff(
    type: ContentType,
    id: string,
    from: number | "current",
    to: number | "current",
  ): Promise<FieldChange[]> {
    await this.entries.row(type, id);
    const [a, b] = await Promise.all([this.versionData(type, id, from), this.versionData(type, id, to)]);
    return diffValues(a, b, Object.keys(type.schema.properties));
  }

  /** The draft becomes version `number`'s values (fields the type no longer has are left out). */
  async restore(type: ContentType, id: string, number: number, actorId: string): Promise<Values> {
    const version = await this.version(type, id, number);
    const row = await this.db.transaction().execute(async (trx) => {
      const existing = await this.entries.row(type, id, trx, true);
      const values = await this.entries.checkedValues(
        trx,
        type,
        existing,
        this.entries.current(type, version.data),
      );
      const next = existing.version + 1;
      return this.entries.writeEntry(
        trx,
        type,
        id,
        {
          data: JSON.stringify(values),
          version: next,
          draft_changed: this.entries.draftChanged(type, existing, values),
          updated_by: actorId,
        },
        { number: next, kind: "restore", data: values, actorId },
      );
    });
    this.entries.changed(type, "updated", [id], actorId);
    return entryRecord(type, row);
  }

  /** Sets (or clears, with null) when the entry publishes and unpublishes by itself. */
  async schedule(
    type: ContentType,
    id: string,
    when: { publishAt?: string | null; unpublishAt?: string | null },
    actorId: string,
  ): Promise<Values> {
    const errors: FieldError[] = [];
    const now = Date.now();
    for (const [field, value] of [
      ["publishAt", when.publishAt],
      ["unpublishAt", when.unpublishAt],
    ] as const) {
      if (value && new Date(value).getTime() <= now)
        errors.push({
          field,
          message: `${field === "publishAt" ? "Publish" : "Unpublish"} time must be in the future`,
        });
    }
    if (when.publishAt && when.unpublishAt && new Date(when.unpublishAt) <= new Date(when.publishAt))
      errors.push({ field: "unpublishAt", message: "Unpublish time must be after the publish time" });
    if (errors.length) throw badRequest(errors[0].message, errors);
    const row = await this.db.transaction().execute(async (trx) => {
      await this.entries.row(type, id, trx, true);
      const set: Values = { updated_at: sql`now()`, updated_by: actorId, revision: sql`revision + 1` };
      if (when.publishAt !== undefined) set.publish_at = when.publishAt;
      if (when.unpublishAt !== undefined) set.unpublish_at = when.unpublishAt;
      const updated = (await trx
        .updateTable("cms_entries")
        .set(set)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow()) as EntryRow;
      // Queued in the same transaction: the schedule exists exactly when its job does.
      for (const action of ["publish", "unpublish"] as const) {
        const at = action === "publish" ? when.publishAt : when.unpublishAt;
        if (!at) continue;
        const payload: SchedulePayload = {
          typeId: type.id,
          entryId: id,
          action,
          at: new Date(at).toISOString(),
          by: actorId,
        };
        await this.ctx.jobs.enqueue(SCHEDULE_JOB, payload, { runAt: new Date(at), db: trx as never });
      }
      return updated;
    });
    this.entries.changed(type, "updated", [id], actorId);
    return entryRecord(type, row);
  }

  /**
   * The job: publishes or unpublishes when the entry is still scheduled for that time, and
   * tells its scheduler. A refusal (the entry no longer fits its type) will not change on a
   * retry: told at once; any other error on the last try.
   */
  async runScheduled(payload: SchedulePayload, attempt = 1): Promise<void> {
    const types = await this.registry.all();
    const type = [...types.values()].find((t) => t.id === payload.typeId);
    if (!type) return;
    const row = (await this.db
      .selectFrom("cms_entries")
      .selectAll()
      .where("id", "=", payload.entryId)
      .executeTakeFirst()) as EntryRow | undefined;
    const column = payload.action === "publish" ? row?.publish_at : row?.unpublish_at;
    if (!row || !column || new Date(column).toISOString() !== payload.at) return;
    try {
      if (payload.action === "publish") await this.publish(type, row.id, null, undefined, payload);
      else {
        // One statement, no transaction of its own: told just after (once, by the dedupe key).
        await this.unpublish(type, row.id, null);
        await scheduleDone(this.ctx, this.db, type, row, payload);
      }
    } catch (error) {
      const refused = error instanceof HttpError && error.statusCode < 500;
      if (!refused && attempt < SCHEDULE_ATTEMPTS) throw error;
      // The schedule is over: the entry no longer claims a time that has passed.
      const column = payload.action === "publish" ? "publish_at" : "unpublish_at";
      await this.db.transaction().execute(async (trx) => {
        await trx
          .updateTable("cms_entries")
          .set({ [column]: null })
          .where("id", "=", row.id)
          .execute();
        await scheduleFailed(this.ctx, trx, type, row, payload, error);
      });
      this.entries.changed(type, "updated", [row.id], "");
      if (!refused) throw error;
    }
  }
}
