/**
 * The online store (issue 18, module 3): connections to commerce platforms (BigCommerce,
 * platform 13) through one adapter interface (platforms.ts), their webhooks, and the carts list.
 * docs/store-api.md.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { storeCartRoutes } from "./carts.routes";
import { storeCheckoutRoutes } from "./checkout.routes";
import { storeConnectionRoutes } from "./connections.routes";
import { StoreConnections } from "./connections.service";
import { type ProductEventHandler, registerWebhookJobs, storeWebhookRoutes } from "./webhooks";

export async function storeModule(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<{ connections: StoreConnections }> {
  const connections = new StoreConnections(ctx);
  // What a store's product webhook does: the sync's upsert of one product.
  const onProductEvent: ProductEventHandler | null = null;
  registerWebhookJobs(ctx, connections, () => onProductEvent);
  await storeConnectionRoutes(app, connections);
  await storeWebhookRoutes(app, ctx, connections);
  await storeCartRoutes(app, ctx);
  await storeCheckoutRoutes(app, ctx, connections);
  return { connections };
}
