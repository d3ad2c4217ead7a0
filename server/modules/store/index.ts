/**
 * The online store (issue 18, module 3): connections to commerce platforms (BigCommerce,
 * platform 13) through one adapter interface (platforms.ts). docs/store-api.md.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { storeConnectionRoutes } from "./connections.routes";
import { StoreConnections } from "./connections.service";
// Store sync: the sync job, push-back, the store product list (sync.service.ts, push.ts).
import { registerPushJob } from "./push";
import { storeSyncRoutes } from "./sync.routes";
import { StoreSyncs, SYNC_JOB } from "./sync.service";

export { productStoreRules } from "./push";
export { StoreSyncs, upsertStoreProduct } from "./sync.service";

export async function storeModule(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<{ connections: StoreConnections; syncs: StoreSyncs }> {
  const connections = new StoreConnections(ctx);
  await storeConnectionRoutes(app, connections);
  // Store sync: one job per sync (one at a time per store), push-back of price and stock.
  const syncs = new StoreSyncs(ctx, connections);
  ctx.jobs.register<{ syncId: string }>(SYNC_JOB, (job) => syncs.run(job), {
    concurrency: 2,
    maxAttempts: 3,
  });
  registerPushJob(ctx, syncs);
  await storeSyncRoutes(app, ctx, syncs);
  return { connections, syncs };
}
