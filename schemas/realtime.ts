/**
 * Wire contract of the realtime socket (ARCHITECTURE.md §5, docs/resource-api.md "Live
 * updates"). Shared by the server (server/realtime/socket.ts) and the SPA
 * (providers/live-provider.ts). Pure types and constants.
 */

/** The socket.io path on the socket service base. */
import type { DamChange } from "./dam";
import type { NotificationMessage } from "./notifications";

export const SOCKET_PATH = "/socket.io";

/** Namespace of the asset manager (DAM); the app's events use the default "/". */
export const DAM_NAMESPACE = "/dam";

export type ResourceChangeType = "created" | "updated" | "deleted";

/** `change`: a committed write on a resource the socket subscribed to. */
export interface ResourceChangeMessage {
  resource: string;
  type: ResourceChangeType;
  ids: string[];
}

/** Answer to `subscribe`. */
export type SubscribeAck = { ok: true } | { ok: false; message: string };

/** Why the server ended a session live (the sign-in screen says why). */
export type SessionEndReason = "disabled" | "device-signed-out" | "deleted";

/**
 * `account`, to the sockets of one user (or of some of their sessions): their role or module
 * grants changed (reload the identity and the access checks), or the session is over.
 */
export type AccountMessage = { type: "access-changed" } | { type: "session-ended"; reason: SessionEndReason };

/** Events the server emits. */
export interface ServerToClientEvents {
  change: (message: ResourceChangeMessage) => void;
  account: (message: AccountMessage) => void;
  /** On `/dam` only: a committed asset manager change (docs/dam-api.md). */
  "dam:change": (message: DamChange) => void;
  /** Who has a record's edit form open, sent to each of them when someone comes or goes. */
  presence: (message: PresenceMessage) => void;
  /** To one user's pages: a new notification, or some read or deleted elsewhere (schemas/notifications.ts). */
  notification: (message: NotificationMessage) => void;
}

/** One person with a record's edit form open (one entry however many tabs they have). */
export interface Editor {
  userId: string;
  name: string;
}

export interface PresenceMessage {
  resource: string;
  id: string;
  editors: Editor[];
}

export type PresenceAck = { ok: true; editors: Editor[] } | { ok: false; message: string };

/** Events the client emits. */
export interface ClientToServerEvents {
  /** Joins the resource's room when the user has its module. */
  subscribe: (resource: string, ack: (answer: SubscribeAck) => void) => void;
  unsubscribe: (resource: string) => void;
  /** Says this socket has the record's edit form open (the user needs the resource's module). */
  "presence:join": (resource: string, id: string, ack: (answer: PresenceAck) => void) => void;
  /** The edit form closed. Leaving is also implied when the socket disconnects. */
  "presence:leave": (resource: string, id: string) => void;
}

/**
 * `connect_error` data when the handshake is refused: the same status rules as HTTP
 * (417 expired token → refresh and reconnect; 401/406 → sign out; 403 no module).
 */
export interface HandshakeErrorData {
  statusCode: number;
}
