/**
 * Bulk edit (issue 31; docs/resource-api.md "Bulk edit"): one field set to one value on many
 * records of a resource, chosen by id or by the list's filters and search.
 *
 * The body `{ field: value }` is checked once, as a PATCH of that one field is (the one
 * validator, the update body schema of the schema now). Then each record goes through the
 * engine's own update (ResourceService.update: option lists, rules, the record watcher, and
 * whatever else a PATCH does), so a refusal of one record (its rules, a constraint) is counted
 * and listed with its reason, and the others go on. Up to BULK_INLINE_MAX records run in the
 * request; more run as one durable job (`resources.bulk-update`) whose progress is kept in
 * `bulk_updates`, read again by the list screen. A job taken again after a crash goes on from
 * its last recorded batch (setting a value twice is harmless). Live updates: one `updated`
 * change per batch, not one per record.
 */
import { type Kysely, sql } from "kysely";
import type { EntitySchema } from "../../../schemas/contract";
import { fieldErrors, invalidInputMessage } from "../../../schemas/error-messages";
import {
  BULK_ERRORS_LISTED,
  BULK_INLINE_MAX,
  BULK_UPDATE_MAX,
  type BulkRefusal,
  type BulkUpdate,
  type BulkUpdateInput,
} from "../../../schemas/saved-views";
import type { AppContext } from "../../context";
import { badRequest, HttpError, notFound } from "../../http/errors";
import { listPage } from "../../http/list-query";
import { compileBody } from "../../http/validation";
import type { JobContext } from "../../jobs";
import { listOptionsOf } from "../list-options";
import { bodySchemaOf, type Row } from "../records";
import type { AnyDb } from "../rules";
import type { ResourceService } from "../service";

/** Days an ended bulk edit's outcome is kept (deleted when a later one starts). */
export const KEEP_ENDED_DAYS = 30;

export const BULK_UPDATE_JOB = "resources.bulk-update";
/** Records per batch: progress is recorded, and one live change sent, after each. */
export const BULK_BATCH = 100;

interface BulkRow {
  id: string;
  resource: string;
  field: string;
  value: unknown;
  ids: string[];
  status: BulkUpdate["status"];
  total: number;
  done: number;
  updated: number;
  refused: number;
  errors: BulkRefusal[];
  error: string | null;
  requested_by: string | null;
}

interface BulkDb {
  bulk_updates: BulkRow;
}

const validators = new WeakMap<EntitySchema, ReturnType<typeof compileBody>>();

/** The update body schema's check, compiled once per schema (an `x-custom` one per version). */
function updateCheck(schema: EntitySchema) {
  let check = validators.get(schema);
  if (!check) {
    check = compileBody(bodySchemaOf(schema, "update"));
    validators.set(schema, check);
  }
  return check;
}

const toBulk = (row: BulkRow): BulkUpdate => ({
  id: row.id,
  status: row.status,
  field: row.field,
  total: row.total,
  done: row.done,
  updated: row.updated,
  refused: row.refused,
  errors: row.errors,
  error: row.error,
});

export class BulkUpdates {
  constructor(
    private readonly ctx: AppContext,
    private readonly services: ReadonlyMap<string, ResourceService>,
  ) {}

  private get db(): Kysely<BulkDb> {
    return this.ctx.db as unknown as Kysely<BulkDb>;
  }

  /** Checks the request, then runs it inline or queues it as a job. */
  async start(
    service: ResourceService,
    input: BulkUpdateInput,
    actorId: string,
  ): Promise<{ inline: boolean; bulk: BulkUpdate }> {
    const schema = await service.schemaNow();
    const { field, value } = input;
    const property = Object.hasOwn(schema.properties, field) ? schema.properties[field] : undefined;
    if (!property || property.readOnly)
      throw badRequest(`'${field}' is not a field of ${service.def.label.toLowerCase()} that can be set`, [
        { field: "field", message: `is not a field of ${service.def.label.toLowerCase()} that can be set` },
      ]);
    const body = { [field]: value };
    const check = updateCheck(schema);
    if (!check(body)) {
      const details = fieldErrors(check.errors ?? []);
      throw badRequest(invalidInputMessage(details), details);
    }
    if (input.ids && (input.filters !== undefined || input.q !== undefined))
      throw badRequest("Send either the records' ids or a filter, not both", [
        { field: "ids", message: "Send either ids, or filters and q, not both" },
      ]);
    const ids = input.ids ?? (await this.matching(service, schema, input));
    if (ids.length === 0)
      throw badRequest("No records match: nothing to change", [
        { field: "ids", message: "No records match" },
      ]);
    if (ids.length > BULK_UPDATE_MAX)
      throw badRequest(`At most ${BULK_UPDATE_MAX.toLocaleString("en-IN")} records can be changed at once`, [
        { field: "ids", message: `Narrow the filter: ${ids.length} records match` },
      ]);
    if (ids.length <= BULK_INLINE_MAX) {
      const outcome = { updated: 0, refused: 0, errors: [] as BulkRefusal[] };
      await this.runBatch(service, ids, body, actorId, outcome);
      return {
        inline: true,
        bulk: {
          id: null,
          status: "finished",
          field,
          total: ids.length,
          done: ids.length,
          error: null,
          ...outcome,
        },
      };
    }
    const row = await this.db.transaction().execute(async (trx) => {
      const made = await trx
        .insertInto("bulk_updates")
        .values({
          resource: service.def.name,
          field,
          value: JSON.stringify(value ?? null),
          ids: JSON.stringify(ids),
          total: ids.length,
          requested_by: actorId,
        } as never)
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.ctx.jobs.enqueue(BULK_UPDATE_JOB, { bulkId: made.id }, { db: trx as never, maxAttempts: 3 });
      // Ended bulk edits are kept KEEP_ENDED_DAYS for their outcome, then go with the next one.
      await trx
        .deleteFrom("bulk_updates")
        .where("status", "in", ["finished", "failed"])
        .where(sql<boolean>`created_at < now() - make_interval(days => ${KEEP_ENDED_DAYS})`)
        .execute();
      return made;
    });
    return { inline: false, bulk: toBulk(row) };
  }

  /** Every record the list's filters and search match, by id (at most one more than allowed). */
  private async matching(
    service: ResourceService,
    schema: EntitySchema,
    input: { filters?: unknown[]; q?: string },
  ): Promise<string[]> {
    const db = this.ctx.db as unknown as AnyDb;
    const { rows } = await listPage(
      db,
      db
        .selectFrom(`${service.table} as t`)
        .select("t.id")
        .limit(BULK_UPDATE_MAX + 1),
      { filters: input.filters?.length ? JSON.stringify(input.filters) : undefined, q: input.q || undefined },
      { ...listOptionsOf(schema), unpaged: true },
    );
    return rows.map((r) => (r as { id: string }).id);
  }

  /** A bulk edit job's progress, for its resource's list (404 for another resource's). */
  /** A bulk edit's progress, for the person who started it or an admin (404 to anyone else). */
  async get(resource: string, id: string, reader: { userId: string; isAdmin: boolean }): Promise<BulkUpdate> {
    const row = await this.db
      .selectFrom("bulk_updates")
      .selectAll()
      .where("id", "=", id)
      .where("resource", "=", resource)
      .executeTakeFirst();
    if (!row || (!reader.isAdmin && row.requested_by !== reader.userId))
      throw notFound("Bulk edit not found");
    return toBulk(row);
  }

  /**
   * Updates `ids` one by one through the engine's update, adding to `outcome`; then one live
   * change for those updated, and the names of those refused.
   */
  private async runBatch(
    service: ResourceService,
    ids: readonly string[],
    body: Row,
    actorId: string | null,
    outcome: { updated: number; refused: number; errors: BulkRefusal[] },
  ): Promise<void> {
    const changed: string[] = [];
    const refused: BulkRefusal[] = [];
    for (const id of ids) {
      try {
        await service.update(id, { ...body }, actorId, undefined, false);
        changed.push(id);
      } catch (error) {
        if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
        const detail = error.details?.[0]?.message;
        refused.push({
          id,
          label: null,
          message: detail && detail !== error.message ? `${error.message}: ${detail}` : error.message,
        });
      }
    }
    outcome.updated += changed.length;
    outcome.refused += refused.length;
    const room = BULK_ERRORS_LISTED - outcome.errors.length;
    if (room > 0 && refused.length)
      outcome.errors.push(...(await this.named(service, refused.slice(0, room))));
    if (changed.length)
      this.ctx.events.publish({
        resource: service.def.name,
        moduleID: service.def.moduleID,
        type: "updated",
        ids: changed,
        actorId,
      });
  }

  /** Refusals with their records' names (a record deleted meanwhile keeps none). */
  private async named(service: ResourceService, refused: BulkRefusal[]): Promise<BulkRefusal[]> {
    const labelField = service.def.schema["x-label"];
    const db = this.ctx.db as unknown as AnyDb;
    const rows = (await db
      .selectFrom(service.table)
      .select(["id", sql.ref(labelField).as("label")])
      .where(
        "id",
        "in",
        refused.map((r) => r.id),
      )
      .execute()) as { id: string; label: unknown }[];
    const labels = new Map(rows.map((r) => [r.id, r.label == null ? null : String(r.label)]));
    return refused.map((r) => ({ ...r, label: labels.get(r.id) ?? null }));
  }

  /** The job: runs a queued bulk edit from where it got to, recording progress after each batch. */
  async run(job: JobContext<{ bulkId: string }>): Promise<void> {
    const row = await this.db
      .selectFrom("bulk_updates")
      .selectAll()
      .where("id", "=", job.payload.bulkId)
      .executeTakeFirst();
    if (!row || row.status === "finished" || row.status === "failed") return;
    const service = this.services.get(row.resource);
    const set = (values: Partial<Record<keyof BulkRow | "finished_at", unknown>>) =>
      this.db
        .updateTable("bulk_updates")
        .set(values as never)
        .where("id", "=", row.id)
        .execute();
    if (!service) {
      await set({
        status: "failed",
        error: `No resource '${row.resource}' any more`,
        finished_at: sql`now()`,
      });
      return;
    }
    await set({ status: "running" });
    const outcome = { updated: row.updated, refused: row.refused, errors: row.errors };
    const body = { [row.field]: row.value };
    try {
      for (let done = row.done; done < row.ids.length; done += BULK_BATCH) {
        if (job.signal.aborted) throw new Error("stopped");
        const batch = row.ids.slice(done, done + BULK_BATCH);
        await this.runBatch(service, batch, body, row.requested_by, outcome);
        await set({
          done: done + batch.length,
          updated: outcome.updated,
          refused: outcome.refused,
          errors: JSON.stringify(outcome.errors),
        });
      }
      await set({ status: "finished", finished_at: sql`now()` });
    } catch (error) {
      // Stopped by the queue, or a failure the next attempt may not meet: run again.
      if (job.signal.aborted || job.attempt < 3) throw error;
      await set({
        status: "failed",
        error: error instanceof Error ? error.message : String(error),
        finished_at: sql`now()`,
      });
    }
  }
}
