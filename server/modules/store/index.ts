/**
 * The online store (issue 18, module 3): connections to commerce platforms (BigCommerce,
 * platform 13) through one adapter interface (platforms.ts); proposals (their lines, sending,
 * PDF, cart, public link). docs/store-api.md.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { storeConnectionRoutes } from "./connections.routes";
import { StoreConnections } from "./connections.service";
import { proposalRoutes } from "./proposals.routes";
import { ProposalsService } from "./proposals.service";
// --- proposals (issue 18) ---
import { publicProposalRoutes } from "./proposals-public.routes";
// --- end proposals ---

export async function storeModule(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<{ connections: StoreConnections; proposals: ProposalsService }> {
  const connections = new StoreConnections(ctx);
  await storeConnectionRoutes(app, connections);
  // --- proposals (issue 18) ---
  const proposals = new ProposalsService(ctx);
  await proposalRoutes(app, proposals, connections);
  await publicProposalRoutes(app, ctx, proposals);
  // --- end proposals ---
  return { connections, proposals };
}
