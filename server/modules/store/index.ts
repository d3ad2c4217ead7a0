/**
 * The online store (issue 18, module 3): connections to commerce platforms (BigCommerce,
 * platform 13) through one adapter interface (platforms.ts). docs/store-api.md.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { storeConnectionRoutes } from "./connections.routes";
import { StoreConnections } from "./connections.service";

export async function storeModule(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<{ connections: StoreConnections }> {
  const connections = new StoreConnections(ctx);
  await storeConnectionRoutes(app, connections);
  return { connections };
}
