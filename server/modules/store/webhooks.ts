/**
 * A store's webhooks (issue 18). BigCommerce does not sign its callbacks: it sends back the custom
 * headers set when the hook was registered, so each connection has a random secret (sealed) that
 * its hooks carry in `X-Atelier-Store-Hook`, compared in constant time on arrival.
 *
 * - Registering is a job (`store.webhooks.register`), queued when a store is connected or its
 *   token changes, and on "register again": it creates or brings up to date one hook per scope at
 *   `{PUBLIC_URL}/hooks/store/{connectionId}` and records how it went on the connection.
 * - A callback (`POST /hooks/store/{connectionId}`, public) is checked, read, and answered 200 at
 *   once; what it tells is done by a job (`store.webhook`): BigCommerce's payloads carry only the
 *   id, so the cart or product is read from the store there. The store's retries of one
 *   callback (same `hash`) are one event for a week (server/http/inbound-events.ts): a retry is
 *   answered as the first was and does nothing, even after the job finished.
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { UUID } from "../../../schemas/uuid";
import { markScopePublic, moduleAccess } from "../../auth/access";
import type { AppContext } from "../../context";
import { HttpError, notFound, unauthorized } from "../../http/errors";
import { createInboundEvents, jsonAnswer, sendInbound } from "../../http/inbound-events";
import { sameSecret } from "../automation/hooks.routes";
import type { Db } from "../crm/timeline";
import { cartWasAbandoned, cartWasConverted } from "./carts";
import type { ConnectionAccess } from "./connection-access";
import type { PlatformCart, StoreEvent } from "./platforms";

export const WEBHOOK_HEADER = "x-atelier-store-hook";
const REGISTER_JOB = "store.webhooks.register";
const EVENT_JOB = "store.webhook";
/** Largest callback body: BigCommerce's are a few hundred bytes. */
const MAX_CALLBACK_BYTES = 64 * 1024;

const sealedFor = (id: string) => `store_connections.webhook:${id}`;

/** What the product events do: the sync's upsert of one product (set by the sync). */
export type ProductEventHandler = (connectionId: string, event: StoreEvent) => Promise<void>;

/** Queues the registration of a connection's webhooks, in `db`'s transaction. */
export async function queueWebhookRegistration(ctx: AppContext, db: Db, connectionId: string): Promise<void> {
  await ctx.jobs.enqueue(REGISTER_JOB, { connectionId }, { key: connectionId, db });
}

export function registerWebhookJobs(
  ctx: AppContext,
  connections: ConnectionAccess,
  onProductEvent: ProductEventHandler,
): void {
  ctx.jobs.register<{ connectionId: string }>(
    REGISTER_JOB,
    async ({ payload }) => {
      const { connectionId } = payload;
      const row = await ctx.db
        .selectFrom("store_connections")
        .select(["id", "webhook_secret_sealed"])
        .where("id", "=", connectionId)
        .executeTakeFirst();
      if (!row) return;
      let secret: string;
      if (row.webhook_secret_sealed) secret = ctx.secrets.open(row.webhook_secret_sealed, sealedFor(row.id));
      else {
        secret = randomBytes(32).toString("base64url");
        await ctx.db
          .updateTable("store_connections")
          .set({ webhook_secret_sealed: ctx.secrets.seal(secret, sealedFor(row.id)) })
          .where("id", "=", row.id)
          .execute();
      }
      const access = await connections.access(connectionId);
      let error: string | null = null;
      try {
        await access.platform.registerWebhooks(access, webhookUrl(ctx, connectionId), {
          [WEBHOOK_HEADER]: secret,
        });
      } catch (e) {
        // The store's words may quote the token back: never keep it.
        error = (e instanceof Error ? e.message : String(e))
          .split(access.token)
          .join("[token]")
          .slice(0, 500);
      }
      await ctx.db
        .updateTable("store_connections")
        .set({
          webhooks_status: error ? "failing" : "registered",
          webhooks_error: error,
          webhooks_at: new Date(),
        })
        .where("id", "=", connectionId)
        .execute();
    },
    { maxAttempts: 3 },
  );

  ctx.jobs.register<{ connectionId: string; event: StoreEvent }>(
    EVENT_JOB,
    async ({ payload }) => {
      const { connectionId, event } = payload;
      const exists = await ctx.db
        .selectFrom("store_connections")
        .select("id")
        .where("id", "=", connectionId)
        .executeTakeFirst();
      if (!exists) return;
      switch (event.kind) {
        case "cart-abandoned": {
          // Removed since the check above: nothing left to keep the cart for.
          const access = await connections.access(connectionId).catch((error: unknown) => {
            if (error instanceof HttpError && error.statusCode === 404) return null;
            throw error;
          });
          if (!access) return;
          let cart: PlatformCart | null;
          try {
            cart = await access.platform.cart(access, event.cartId);
          } catch (error) {
            // Recorded on the job as the store said it, but the store's words may quote the token.
            const words = error instanceof Error ? error.message : String(error);
            throw new Error(words.split(access.token).join("[token]").slice(0, 500));
          }
          await ctx.db.transaction().execute(async (trx) => {
            // Held while the cart is kept: a store removed meanwhile takes its carts' events with it.
            if (await connectionHeld(trx, connectionId))
              await cartWasAbandoned(ctx, trx, connectionId, event.cartId, cart);
          });
          return;
        }
        case "cart-converted":
          await ctx.db
            .transaction()
            .execute((trx) => cartWasConverted(ctx, trx, connectionId, event.cartId, event.orderId));
          return;
        default:
          await onProductEvent(connectionId, event);
      }
    },
    { concurrency: 2 },
  );
}

const connectionHeld = async (trx: Db, id: string) =>
  Boolean(
    await trx.selectFrom("store_connections").select("id").where("id", "=", id).forShare().executeTakeFirst(),
  );

export const webhookUrl = (ctx: AppContext, connectionId: string) =>
  `${ctx.config.publicUrl}/hooks/store/${connectionId}`;

export async function storeWebhookRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  connections: ConnectionAccess,
) {
  app.post<{ Params: { id: string } }>(
    "/api/store/connections/:id/webhooks",
    {
      config: { access: moduleAccess(MODULE_IDS.store) },
      schema: {
        tags: ["online store"],
        security: [{ bearer: [] }],
        summary: "Register the store's webhooks again (they keep carts and products current)",
        params: {
          type: "object",
          required: ["id"],
          properties: { id: { type: "string", format: "uuid", title: "Connection" } },
        },
      },
    },
    async (request, reply) => {
      await connections.get(request.params.id);
      await queueWebhookRegistration(ctx, ctx.db, request.params.id);
      return reply.status(202).send({ queued: true });
    },
  );

  const inbound = createInboundEvents(ctx.db);
  await app.register(async (scope) => {
    markScopePublic(scope);
    scope.post<{ Params: { id: string }; Body: unknown }>(
      "/hooks/store/:id",
      {
        bodyLimit: MAX_CALLBACK_BYTES,
        config: { secrets: { headers: [WEBHOOK_HEADER] } },
        schema: {
          tags: ["online store"],
          summary: "A store's webhook callback (authenticated by the header its hooks were registered with)",
          params: {
            type: "object",
            required: ["id"],
            properties: { id: { type: "string", maxLength: 64 } },
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const unknown = () => notFound("No store connection listens at this address");
        if (!UUID.test(id)) throw unknown();
        const row = await ctx.db
          .selectFrom("store_connections")
          .select(["id", "platform", "webhook_secret_sealed"])
          .where("id", "=", id)
          .executeTakeFirst();
        if (!row) throw unknown();
        const given = request.headers[WEBHOOK_HEADER];
        const secret = row.webhook_secret_sealed
          ? ctx.secrets.open(row.webhook_secret_sealed, sealedFor(row.id))
          : null;
        if (typeof given !== "string" || !secret || !sameSecret(given, secret))
          throw unauthorized("This callback does not carry the store's webhook header");
        const access = await connections.access(id);
        const event = access.platform.readCallback(request.body);
        // Answered 200 all the same: a store turns off a hook whose callbacks keep failing.
        if (!event) return { accepted: false };
        const body = request.body as { hash?: unknown };
        const hash = typeof body.hash === "string" ? body.hash.slice(0, 80) : "";
        const act = async () => {
          await ctx.jobs.enqueue(
            EVENT_JOB,
            { connectionId: id, event },
            { key: `${id}:${event.kind}:${"cartId" in event ? event.cartId : event.productId}:${hash}` },
          );
          return jsonAnswer(200, { accepted: true });
        };
        // The store's retries of one callback (its `hash`) are one event for a week, not only
        // while its job is queued: a retry after the job finished is answered and does nothing.
        return sendInbound(
          reply,
          hash ? await inbound.once(`store:${id}`, hash, act) : { answer: await act(), replayed: false },
        );
      },
    );
  });
}
