/**
 * The online store's connections (issue 18): a store is checked before it is saved (its token
 * sealed by the secret box, never answered), can be checked again (its status and last error
 * kept for the settings screen), renamed, given a new token (checked first), made the default
 * (one at most), and removed.
 */
import { randomUUID } from "node:crypto";
import { type Selectable, sql, type Transaction } from "kysely";
import {
  BIGCOMMERCE,
  type CreateStoreConnection,
  type StoreCheck,
  type StoreConnection,
  type UpdateStoreConnection,
} from "../../../schemas/store";
import { isoOrNull as iso } from "../../../src/lib/dates";
import type { AppContext } from "../../context";
import type { StoreConnectionsTable } from "../../db/types-store";
import { badRequest, conflict, notFound } from "../../http/errors";
import type { ConnectionAccess } from "./connection-access";
import { type CommercePlatform, commercePlatforms, type StoreAccess, StoreProblem } from "./platforms";
import { queueWebhookRegistration } from "./webhooks";

type Row = Selectable<StoreConnectionsTable>;

function toConnection(row: Row): StoreConnection {
  return {
    id: row.id,
    platform: row.platform,
    name: row.name,
    storeHash: row.store_hash,
    storeName: row.store_name,
    currency: row.currency,
    isDefault: row.is_default,
    status: row.status,
    lastCheckedAt: iso(row.last_checked_at),
    lastError: row.last_error,
    lastSyncAt: iso(row.last_sync_at),
    webhooks: row.webhooks_status,
    webhooksError: row.webhooks_error,
    createdAt: iso(row.created_at) as string,
  };
}

/** Where a token is sealed: authenticated with it, so a sealed token copied to another row does not open. */
const sealedFor = (id: string) => `store_connections.token:${id}`;

/**
 * Creates, "make default" and removals one at a time: two at once would otherwise both pass the "connected
 * already" check, or both set a default, and one meet the unique index as a bare 409.
 */
const serialize = (trx: Transaction<unknown>) =>
  sql`lock table store_connections in share row exclusive mode`.execute(trx);

/**
 * A failed check as a 400: on the form's field it is about, or on none (the store could not be
 * reached, it answered oddly), so it is not shown under a field that is not at fault.
 */
function refused(problem: StoreProblem): never {
  if (!problem.field) throw badRequest(problem.message);
  throw badRequest(problem.message, [{ field: problem.field, message: problem.message }]);
}

export class StoreConnections implements ConnectionAccess {
  private readonly platforms: ReadonlyMap<number, CommercePlatform>;

  constructor(private readonly ctx: AppContext) {
    this.platforms = commercePlatforms(ctx.config);
  }

  private platform(id: number): CommercePlatform {
    const platform = this.platforms.get(id);
    if (!platform)
      throw badRequest("Unknown platform", [{ field: "platform", message: "must be 13 (BigCommerce)" }]);
    return platform;
  }

  private async row(id: string): Promise<Row> {
    const row = await this.ctx.db
      .selectFrom("store_connections")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw notFound("Store connection not found");
    return row;
  }

  async list(): Promise<StoreConnection[]> {
    const rows = await this.ctx.db
      .selectFrom("store_connections")
      .selectAll()
      .orderBy("is_default", "desc")
      .orderBy("name")
      .orderBy("id")
      .execute();
    return rows.map(toConnection);
  }

  async get(id: string): Promise<StoreConnection> {
    return toConnection(await this.row(id));
  }

  /** The default connection's id, or null when no store is connected. */
  async defaultId(): Promise<string | null> {
    const row = await this.ctx.db
      .selectFrom("store_connections")
      .select("id")
      .where("is_default", "=", true)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** The token of a connection, opened, for the server's own calls to the store. */
  async access(id: string): Promise<StoreAccess & { platform: CommercePlatform }> {
    const row = await this.row(id);
    return {
      storeHash: row.store_hash,
      token: this.ctx.secrets.open(row.token_sealed, sealedFor(row.id)),
      platform: this.platform(row.platform),
    };
  }

  async create(input: CreateStoreConnection, actorId: string): Promise<StoreConnection> {
    const platform = this.platform(input.platform ?? BIGCOMMERCE);
    const access = { storeHash: input.storeHash, token: input.token };
    const store = await platform.check(access).catch((error: unknown) => {
      if (error instanceof StoreProblem) refused(error);
      throw error;
    });
    const id = randomUUID();
    const row = await this.ctx.db.transaction().execute(async (trx) => {
      await serialize(trx as Transaction<unknown>);
      const taken = await trx
        .selectFrom("store_connections")
        .select("name")
        .where("platform", "=", platform.id)
        .where("store_hash", "=", input.storeHash)
        .executeTakeFirst();
      if (taken)
        throw conflict(`This store is connected already, as "${taken.name}"`, [
          { field: "storeHash", message: "is connected already" },
        ]);
      const first = !(await trx.selectFrom("store_connections").select("id").limit(1).executeTakeFirst());
      const isDefault = first || input.isDefault === true;
      if (isDefault)
        await trx
          .updateTable("store_connections")
          .set({ is_default: false })
          .where("is_default", "=", true)
          .execute();
      const inserted = await trx
        .insertInto("store_connections")
        .values({
          id,
          platform: platform.id,
          name: input.name.trim(),
          store_hash: input.storeHash,
          token_sealed: this.ctx.secrets.seal(input.token, sealedFor(id)),
          store_name: store.storeName,
          currency: store.currency,
          is_default: isDefault,
          last_checked_at: new Date(),
          created_by: actorId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await queueWebhookRegistration(this.ctx, trx, id);
      return inserted;
    });
    return toConnection(row);
  }

  async update(id: string, input: UpdateStoreConnection): Promise<StoreConnection> {
    const current = await this.row(id);
    let checked: { storeName: string; currency: string } | null = null;
    if (input.token !== undefined) {
      checked = await this.platform(current.platform)
        .check({ storeHash: current.store_hash, token: input.token })
        .catch((error: unknown) => {
          if (error instanceof StoreProblem) refused(error);
          throw error;
        });
    }
    const row = await this.ctx.db.transaction().execute(async (trx) => {
      if (input.isDefault) {
        await serialize(trx as Transaction<unknown>);
        await trx
          .updateTable("store_connections")
          .set({ is_default: false })
          .where("is_default", "=", true)
          .where("id", "<>", id)
          .execute();
      }
      const updated = await trx
        .updateTable("store_connections")
        .set({
          updated_at: new Date(),
          ...(input.name !== undefined ? { name: input.name.trim() } : {}),
          ...(input.isDefault ? { is_default: true } : {}),
          ...(input.token !== undefined && checked
            ? {
                token_sealed: this.ctx.secrets.seal(input.token, sealedFor(id)),
                store_name: checked.storeName,
                currency: checked.currency,
                status: "connected" as const,
                last_error: null,
                last_checked_at: new Date(),
              }
            : {}),
        })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw notFound("Store connection not found");
      // A new token may be another account's: its hooks are registered again.
      if (input.token !== undefined) await queueWebhookRegistration(this.ctx, trx, id);
      return updated;
    });
    return toConnection(row);
  }

  /** Checks the store again with its kept token; records how it went. */
  async test(id: string): Promise<StoreCheck> {
    const access = await this.access(id);
    const checkedAt = new Date();
    let check: StoreCheck;
    try {
      const store = await access.platform.check(access);
      check = { ok: true, ...store, checkedAt: checkedAt.toISOString() };
    } catch (error) {
      if (!(error instanceof StoreProblem)) throw error;
      check = { ok: false, field: error.field, message: error.message, checkedAt: checkedAt.toISOString() };
    }
    await this.ctx.db
      .updateTable("store_connections")
      .set(
        check.ok
          ? {
              status: "connected",
              last_error: null,
              last_checked_at: checkedAt,
              store_name: check.storeName,
              currency: check.currency,
            }
          : { status: "failing", last_error: check.message, last_checked_at: checkedAt },
      )
      .where("id", "=", id)
      .execute();
    return check;
  }

  /** Removes a connection; the default passes to the oldest one left. */
  async remove(id: string): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      // The default passed on here and one made at once would be two.
      await serialize(trx as Transaction<unknown>);
      const gone = await trx
        .deleteFrom("store_connections")
        .where("id", "=", id)
        .returning("is_default")
        .executeTakeFirst();
      if (!gone) throw notFound("Store connection not found");
      if (!gone.is_default) return;
      const next = await trx
        .selectFrom("store_connections")
        .select("id")
        .orderBy("created_at")
        .orderBy("id")
        .limit(1)
        .executeTakeFirst();
      if (next)
        await trx
          .updateTable("store_connections")
          .set({ is_default: true })
          .where("id", "=", next.id)
          .execute();
    });
  }
}
