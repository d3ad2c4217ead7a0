/**
 * The socket.io types of the realtime server, apart from socket.ts so that what it hands sockets
 * to (presence.ts) reads them without importing the server back.
 */
import type { Namespace, Server, Socket } from "socket.io";
import type { ClientToServerEvents, ServerToClientEvents } from "../../schemas/realtime";
import type { Principal } from "../auth/principal";

export interface SocketData {
  principal: Principal;
  /** The user's name, read when the socket first says it has an edit form open (presence). */
  name?: string;
}

// biome-ignore lint/complexity/noBannedTypes: no server-to-server events.
export type InterServerEvents = {};

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;
export type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type AppNamespace = Namespace<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;
