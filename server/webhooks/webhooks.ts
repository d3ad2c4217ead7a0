/**
 * The signed-webhook sender (issue 14; the forms, CRM and automation modules reuse it): a
 * module's admins register URLs for its events; each event becomes a delivery, sent by the
 * durable job queue with growing waits between attempts, signed with HMAC-SHA256 over
 * `<timestamp>.<body>` by the hook's secret, and logged (status, attempts, the answer's code
 * or the error) for the admin to read. Targets go through the outbound client, which refuses
 * private addresses unless configuration allows them.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { isoOrNull as iso } from "../../src/lib/dates";
import type { CoreContext } from "../core-context";
import { Inserts, insertRows } from "../db/insert-rows";
import { SharedCache } from "../db/shared-cache";
import { badRequest, notFound } from "../http/errors";
import { outboundProblem } from "../http/outbound";
import {
  DELIVER_JOB,
  DELIVERIES_PER_JOB,
  DELIVERY_ATTEMPTS,
  type DeliverPayload,
  deliver,
  deliveriesOf,
} from "./deliveries";

export { DELIVER_JOB, DELIVERY_ATTEMPTS, signature } from "./deliveries";

/** What the sender uses of the app (app.ts hands it the AppContext, which has all of it). */
export type WebhookDeps = Pick<CoreContext, "config" | "db" | "jobs" | "broadcast" | "log">;

export interface WebhookRecord {
  id: string;
  name: string;
  url: string;
  events: string[];
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryRecord {
  id: string;
  event: string;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: rows of webhooks.
const toWebhook = (r: any): WebhookRecord => ({
  id: r.id,
  name: r.name,
  url: r.url,
  events: typeof r.events === "string" ? JSON.parse(r.events) : r.events,
  active: r.active,
  createdAt: iso(r.created_at) as string,
  updatedAt: iso(r.updated_at) as string,
});

export class WebhookService {
  /** The active hooks of a module's event, kept until any hook changes (on any instance). */
  private readonly listening: SharedCache<Array<{ id: string }>>;

  constructor(private readonly ctx: WebhookDeps) {
    this.listening = new SharedCache(ctx, "atelier_webhooks", 100);
    ctx.jobs.register<DeliverPayload>(
      DELIVER_JOB,
      (job) => deliver(ctx, deliveriesOf(job.payload), job.attempt),
      // Deliveries yield to requests: a burst of answers is taken first, delivered after.
      { concurrency: 4, maxAttempts: DELIVERY_ATTEMPTS, background: true },
    );
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = await outboundProblem(url, this.ctx.config.outboundAllowPrivate);
    if (problem) throw badRequest(`URL ${problem}`, [{ field: "url", message: `URL ${problem}` }]);
  }

  async list(moduleId: number): Promise<WebhookRecord[]> {
    const rows = await this.ctx.db
      .selectFrom("webhooks")
      .selectAll()
      .where("module_id", "=", moduleId)
      .orderBy("name")
      .execute();
    return rows.map(toWebhook);
  }

  private async row(moduleId: number, id: string) {
    const row = await this.ctx.db
      .selectFrom("webhooks")
      .selectAll()
      .where("id", "=", id)
      .where("module_id", "=", moduleId)
      .executeTakeFirst();
    if (!row) throw notFound("Webhook not found");
    return row;
  }

  /** Creates a hook; the answer is the only one that carries its secret. */
  async create(
    moduleId: number,
    input: { name: string; url: string; events: string[]; active?: boolean },
    actorId: string,
  ): Promise<WebhookRecord & { secret: string }> {
    await this.checkUrl(input.url);
    const secret = `whsec_${randomBytes(24).toString("base64url")}`;
    const row = await this.ctx.db
      .insertInto("webhooks")
      .values({
        module_id: moduleId,
        name: input.name,
        url: input.url,
        events: JSON.stringify([...new Set(input.events)]),
        secret,
        active: input.active ?? true,
        created_by: actorId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.listening.changed();
    return { ...toWebhook(row), secret };
  }

  async update(
    moduleId: number,
    id: string,
    change: { name?: string; url?: string; events?: string[]; active?: boolean },
  ): Promise<WebhookRecord> {
    await this.row(moduleId, id);
    if (change.url !== undefined) await this.checkUrl(change.url);
    const row = await this.ctx.db
      .updateTable("webhooks")
      .set({
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.url !== undefined ? { url: change.url } : {}),
        ...(change.events !== undefined ? { events: JSON.stringify([...new Set(change.events)]) } : {}),
        ...(change.active !== undefined ? { active: change.active } : {}),
        updated_at: sql`now()`,
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.listening.changed();
    return toWebhook(row);
  }

  async remove(moduleId: number, id: string): Promise<void> {
    await this.row(moduleId, id);
    await this.ctx.db.deleteFrom("webhooks").where("id", "=", id).execute();
    await this.listening.changed();
  }

  async deliveries(moduleId: number, id: string, limit = 50): Promise<DeliveryRecord[]> {
    await this.row(moduleId, id);
    const rows = await this.ctx.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("webhook_id", "=", id)
      .orderBy("created_at", "desc")
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      event: r.event,
      state: r.state,
      attempts: r.attempts,
      responseStatus: r.response_status,
      error: r.error,
      createdAt: iso(r.created_at) as string,
      deliveredAt: iso(r.delivered_at),
    }));
  }

  /** Queues a delivery of `event` to each active hook of the module that listens to it. */
  async dispatch(moduleId: number, event: string, payload: unknown): Promise<number> {
    const hooks = await this.ctx.db
      .selectFrom("webhooks")
      .select(["id"])
      .where("module_id", "=", moduleId)
      .where("active", "=", true)
      .where(sql<boolean>`events @> ${JSON.stringify([event])}::jsonb`)
      .execute();
    for (const hook of hooks) {
      await this.ctx.db.transaction().execute(async (trx) => {
        const delivery = await trx
          .insertInto("webhook_deliveries")
          .values({ webhook_id: hook.id, event, payload: JSON.stringify({ event, data: payload }) })
          .returning("id")
          .executeTakeFirstOrThrow();
        await this.ctx.jobs.enqueue(DELIVER_JOB, { deliveryId: delivery.id }, { db: trx });
      });
    }
    return hooks.length;
  }

  /**
   * Deliveries of many events of one kind inside the caller's transaction (`db`): they exist
   * only if it commits (a batch of form submissions, stored with their deliveries). With
   * `together`, the deliveries and their jobs are added to it, for the caller to send with the
   * transaction's other inserts in one statement (Inserts).
   */
  async queueMany(
    moduleId: number,
    event: string,
    payloads: readonly unknown[],
    db: CoreContext["db"],
    together?: Inserts,
  ) {
    if (!payloads.length) return 0;
    const key = `${moduleId}:${event}`;
    const generation = this.listening.generation;
    const hooks =
      this.listening.get(key) ??
      this.listening.keep(
        key,
        // In the caller's transaction: on PGlite, one connection, the root would wait for it.
        await db
          .selectFrom("webhooks")
          .select(["id"])
          .where("module_id", "=", moduleId)
          .where("active", "=", true)
          .where(sql<boolean>`events @> ${JSON.stringify([event])}::jsonb`)
          .execute(),
        generation,
      );
    if (!hooks.length) return 0;
    const deliveries = hooks.flatMap((hook) =>
      payloads.map((data) => ({ id: randomUUID(), webhook_id: hook.id, event, payload: { event, data } })),
    );
    // The deliveries and their jobs in one statement at least (a round trip fewer).
    const inserts = together ?? new Inserts();
    inserts.add(
      insertRows(
        "webhook_deliveries",
        { id: "uuid", webhook_id: "uuid", event: "text", payload: "jsonb" },
        deliveries,
      ),
    );
    // Jobs of many deliveries each: sending them costs a few statements a job (deliveries.ts).
    const jobs: DeliverPayload[] = [];
    for (let i = 0; i < deliveries.length; i += DELIVERIES_PER_JOB)
      jobs.push({ deliveryIds: deliveries.slice(i, i + DELIVERIES_PER_JOB).map((d) => d.id) });
    await this.ctx.jobs.enqueueMany(DELIVER_JOB, jobs, { db, together: inserts });
    if (!together) await inserts.send(db);
    return deliveries.length;
  }
}
