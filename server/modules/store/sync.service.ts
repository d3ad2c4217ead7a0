/**
 * Store syncs (issue 18): a durable job per sync, one at a time per store (a queued or running
 * sync is answered again rather than started twice), its progress kept in `store_syncs` and
 * pushed live (`store-syncs` changes), its report kept when it ends.
 *
 * A sync reads the store's categories, then its products page by page
 * (store-catalogue.ts writes them). The rate limit is waited out by the connector, with a longer
 * patience than a connection check's: a sync waits, never fails on the limit. A sync that stops
 * half-way (a crash) runs again from the start: its writes are upserts.
 */
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import type {
  StartStoreSync,
  StoreSync,
  StoreSyncRow,
  StoreSyncStatus,
  StoreSyncWithReport,
} from "../../../schemas/store-sync";
import { isoOrNull as iso } from "../../../src/lib/dates";
import type { AppContext } from "../../context";
import { badRequest, notFound } from "../../http/errors";
import type { JobContext } from "../../jobs";
import type { AnyDb } from "../../resources/rules";
import { type BcCategory, type BcProduct, BigCommerceError, bigCommerce } from "./bigcommerce";
import { StoreConnections } from "./connections.service";
import { catalogueTarget, syncStoreProducts } from "./store-catalogue";
import { syncEnded } from "./sync-notices";

export const SYNC_JOB = "store.sync";
/** Socket resource of sync progress: `ids` are the syncs that moved. */
export const SYNCS_RESOURCE = "store-syncs";
/** Products per page read from the store (BigCommerce allows up to 250). */
export const SYNC_PAGE_SIZE = 250;

interface SyncRow {
  id: string;
  connection_id: string;
  status: StoreSyncStatus;
  total: number;
  done: number;
  created: number;
  updated: number;
  skipped: number;
  conflicts: number;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const SUMMARY = [
  "id",
  "connection_id",
  "status",
  "total",
  "done",
  "created",
  "updated",
  "skipped",
  "conflicts",
  "error",
  "created_at",
  "started_at",
  "finished_at",
] as const;

function toSync(row: SyncRow): StoreSync {
  return {
    id: row.id,
    connectionId: row.connection_id,
    status: row.status,
    total: row.total,
    done: row.done,
    counts: { created: row.created, updated: row.updated, skipped: row.skipped, conflicts: row.conflicts },
    error: row.error,
    createdAt: iso(row.created_at) as string,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
  };
}

/** Options a sync's client is made with (the bench and the tests shorten the page). */
export interface SyncOptions {
  pageSize?: number;
}

export class StoreSyncs {
  constructor(
    private readonly ctx: AppContext,
    private readonly connections: StoreConnections,
    private readonly options: SyncOptions = {},
  ) {}

  private get any(): AnyDb {
    return this.ctx.db as unknown as AnyDb;
  }

  /** The connection asked for, or the default one: a 400 on `connectionId` when there is none. */
  private async connectionId(asked: string | undefined): Promise<string> {
    const query = this.ctx.db.selectFrom("store_connections").select("id");
    const row = await (asked
      ? query.where("id", "=", asked)
      : query.where("is_default", "=", true)
    ).executeTakeFirst();
    if (row) return row.id;
    const message = asked ? "is not a connected store" : "is needed: no store is connected yet";
    throw badRequest(asked ? "No connected store has this id" : "Connect a store first", [
      { field: "connectionId", message },
    ]);
  }

  /** Starts a sync of a store, or answers the one queued or running for it. */
  async start(input: StartStoreSync, actorId: string): Promise<StoreSync> {
    const connectionId = await this.connectionId(input.connectionId);
    const pending = () =>
      this.ctx.db
        .selectFrom("store_syncs")
        .select(SUMMARY)
        .where("connection_id", "=", connectionId)
        .where("status", "in", ["queued", "running"])
        .executeTakeFirst();
    const current = await pending();
    if (current) return toSync(current);
    try {
      const row = await this.ctx.db.transaction().execute(async (trx) => {
        const made = await trx
          .insertInto("store_syncs")
          .values({ connection_id: connectionId, requested_by: actorId })
          .returning(SUMMARY)
          .executeTakeFirstOrThrow();
        await this.ctx.jobs.enqueue(
          SYNC_JOB,
          { syncId: made.id },
          { db: trx, key: connectionId, maxAttempts: 3 },
        );
        return made;
      });
      this.changed(row.id);
      return toSync(row);
    } catch (error) {
      // Two at once: the partial unique index let one in; answer that one.
      if ((error as { code?: string }).code !== "23505") throw error;
      const other = await pending();
      if (!other) throw error;
      return toSync(other);
    }
  }

  async list(): Promise<StoreSync[]> {
    const rows = await this.ctx.db
      .selectFrom("store_syncs")
      .select(SUMMARY)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .limit(20)
      .execute();
    return rows.map(toSync);
  }

  async get(id: string): Promise<StoreSyncWithReport> {
    const row = await this.ctx.db
      .selectFrom("store_syncs")
      .select([...SUMMARY, "report"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw notFound("Sync not found");
    return { ...toSync(row), report: row.report };
  }

  private changed(id: string): void {
    this.ctx.events.publish({
      resource: SYNCS_RESOURCE,
      moduleID: MODULE_IDS.store,
      type: "updated",
      ids: [id],
      actorId: null,
    });
  }

  private async set(id: string, values: Record<string, unknown>): Promise<void> {
    await this.any.updateTable("store_syncs").set(values).where("id", "=", id).execute();
    this.changed(id);
  }

  /** Ends a sync (finished or failed) and tells its starter, in one transaction. */
  private async end(id: string, values: Record<string, unknown>): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      const db = trx as unknown as AnyDb;
      await db.updateTable("store_syncs").set(values).where("id", "=", id).execute();
      await syncEnded(this.ctx, db, id);
    });
    this.changed(id);
  }

  /** A client of the store of a connection, patient with the rate limit (a sync waits it out). */
  async client(connectionId: string, signal?: AbortSignal) {
    const access = await this.connections.access(connectionId);
    return bigCommerce({
      storeHash: access.storeHash,
      token: access.token,
      apiUrl: this.ctx.config.bigcommerceApiUrl,
      // The operator's origin (see platforms.ts).
      allowPrivate: true,
      maxWaitMs: 120_000,
      maxRateLimited: 30,
      timeoutMs: 60_000,
      signal,
    });
  }

  /** The job: runs the sync of `syncId` (again from the start after a crash). */
  async run(job: JobContext<{ syncId: string }>): Promise<void> {
    const { syncId } = job.payload;
    const sync = await this.ctx.db
      .selectFrom("store_syncs")
      .select(["id", "connection_id", "status"])
      .where("id", "=", syncId)
      .executeTakeFirst();
    if (!sync || sync.status === "finished" || sync.status === "failed") return;
    const counts = { created: 0, updated: 0, skipped: 0, conflicts: 0 };
    await this.set(syncId, { status: "running", started_at: sql`now()`, done: 0, total: 0, ...counts });
    const report: StoreSyncRow[] = [];
    let token = "";
    try {
      const connection = await this.ctx.db
        .selectFrom("store_connections")
        .select(["currency"])
        .where("id", "=", sync.connection_id)
        .executeTakeFirstOrThrow();
      token = (await this.connections.access(sync.connection_id)).token;
      const client = await this.client(sync.connection_id, job.signal);
      const categories: BcCategory[] = [];
      for await (const page of client.categories()) categories.push(...page.data);
      const target = await catalogueTarget(this.any, sync.connection_id, connection.currency, categories);
      let done = 0;
      for await (const page of client.products(this.options.pageSize ?? SYNC_PAGE_SIZE)) {
        const rows = await syncStoreProducts(this.any, target, page.data as BcProduct[]);
        report.push(...rows);
        for (const r of rows) {
          if (r.action === "conflict") counts.conflicts++;
          else counts[r.action]++;
        }
        done += page.data.length;
        await this.set(syncId, { total: page.meta.pagination.total, done, ...counts });
      }
      await this.end(syncId, {
        status: "finished",
        finished_at: sql`now()`,
        report: JSON.stringify(report),
      });
      await this.ctx.db
        .updateTable("store_connections")
        .set({ last_sync_at: new Date() })
        .where("id", "=", sync.connection_id)
        .execute();
    } catch (error) {
      // Stopped by the queue (a shutdown): handed back and run again, not failed.
      if (job.signal.aborted) throw error;
      const last = job.attempt >= 3 || (error instanceof BigCommerceError && !error.retryable);
      if (!last) throw error;
      const words = error instanceof Error ? error.message : String(error);
      const message = token ? words.split(token).join("[token]") : words;
      await this.end(syncId, {
        status: "failed",
        finished_at: sql`now()`,
        error: `The sync stopped: ${message}`.slice(0, 1000),
        report: JSON.stringify(report),
      });
      if (error instanceof BigCommerceError && (error.status === 401 || error.status === 403))
        await this.ctx.db
          .updateTable("store_connections")
          .set({ status: "failing", last_error: message.slice(0, 1000) })
          .where("id", "=", sync.connection_id)
          .execute();
    }
  }

  /**
   * Resyncs one store product (and its variants) by its BigCommerce id, for a store webhook
   * (`store/product/updated`): the same rules as a sync, the report's lines answered. A product
   * the store no longer has answers no line.
   */
  async upsertStoreProduct(connectionId: string, bcProductId: number): Promise<StoreSyncRow[]> {
    const connection = await this.ctx.db
      .selectFrom("store_connections")
      .select(["currency"])
      .where("id", "=", connectionId)
      .executeTakeFirst();
    if (!connection) throw notFound("Store connection not found");
    const client = await this.client(connectionId);
    let product: BcProduct;
    try {
      product = await client.product(bcProductId);
    } catch (error) {
      if (error instanceof BigCommerceError && error.status === 404) return [];
      throw error;
    }
    const categories: BcCategory[] = [];
    for await (const page of client.categories()) categories.push(...page.data);
    const target = await catalogueTarget(this.any, connectionId, connection.currency, categories);
    return syncStoreProducts(this.any, target, [product]);
  }
}

/**
 * Resyncs one store product by its BigCommerce id (a store webhook's handler): the sync's rules,
 * its report lines answered. The sync's writes are not pushed back.
 *
 * @example
 * const lines = await upsertStoreProduct(ctx, connectionId, 112);
 */
export function upsertStoreProduct(
  ctx: AppContext,
  connectionId: string,
  bcProductId: number,
): Promise<StoreSyncRow[]> {
  return new StoreSyncs(ctx, new StoreConnections(ctx)).upsertStoreProduct(connectionId, bcProductId);
}
