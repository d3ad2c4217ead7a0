/**
 * The online store (issue 18, module 3): connections to commerce platforms (BigCommerce,
 * platform 13) through one adapter interface (platforms.ts), their webhooks, the carts list and
 * the catalogue viewer's checkout, the sync with its push-back and the store product list,
 * proposals (their lines, sending, PDF, cart, public link). docs/store-api.md.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { storeCartRoutes } from "./carts.routes";
import { storeCheckoutRoutes } from "./checkout.routes";
import { storeConnectionRoutes } from "./connections.routes";
import { StoreConnections } from "./connections.service";
// Store sync: the sync job, push-back, the store product list (sync.service.ts, push.ts).
import { registerPushJob } from "./push";
import { storeSyncRoutes } from "./sync.routes";
import { StoreSyncs, SYNC_JOB } from "./sync.service";
import { registerWebhookJobs, storeWebhookRoutes } from "./webhooks";

export { productStoreRules } from "./push";
export { StoreSyncs, upsertStoreProduct } from "./sync.service";

import { proposalRoutes } from "./proposals.routes";
import { ProposalsService } from "./proposals.service";
import { publicProposalRoutes } from "./proposals-public.routes";

export async function storeModule(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<{ connections: StoreConnections; syncs: StoreSyncs; proposals: ProposalsService }> {
  const connections = new StoreConnections(ctx);
  // Store sync: one job per sync (one at a time per store), push-back of price and stock.
  const syncs = new StoreSyncs(ctx, connections);
  ctx.jobs.register<{ syncId: string }>(SYNC_JOB, (job) => syncs.run(job), {
    concurrency: 2,
    maxAttempts: 3,
  });
  registerPushJob(ctx, syncs);
  // A store's product webhooks resync that product as a sync would; a deleted one loses its link.
  registerWebhookJobs(ctx, connections, async (connectionId, event) => {
    if (event.kind === "product-changed") await syncs.upsertStoreProduct(connectionId, event.productId);
    if (event.kind === "product-deleted")
      await ctx.db
        .deleteFrom("store_product_links")
        .where("connection_id", "=", connectionId)
        .where("bc_product_id", "=", event.productId)
        .execute();
  });
  await storeConnectionRoutes(app, connections);
  await storeWebhookRoutes(app, ctx, connections);
  await storeCartRoutes(app, ctx);
  await storeCheckoutRoutes(app, ctx, connections);
  await storeSyncRoutes(app, ctx, syncs);
  const proposals = new ProposalsService(ctx);
  proposals.registerJobs();
  await proposalRoutes(app, proposals, connections);
  await publicProposalRoutes(app, ctx, proposals);
  return { connections, syncs, proposals };
}
