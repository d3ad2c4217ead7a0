/**
 * What the store's webhooks read of its connections: the connection and its opened token.
 * StoreConnections (connections.service.ts) implements it and is handed to webhooks.ts, which
 * so does not import the service that queues its registrations back.
 */
import type { StoreConnection } from "../../../schemas/store";
import type { CommercePlatform, StoreAccess } from "./platforms";

export interface ConnectionAccess {
  /** The connection as the settings screen shows it; 404 when there is none. */
  get(id: string): Promise<StoreConnection>;
  /** The token of a connection, opened, for the server's own calls to the store. */
  access(id: string): Promise<StoreAccess & { platform: CommercePlatform }>;
}
