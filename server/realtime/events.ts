/**
 * In-process events that the realtime layer (socket.io) fans out to browsers:
 * - resource changes, published by the engine after each committed write, to sockets that
 *   may see that resource;
 * - account changes, published by the users and sessions services, to the sockets of that
 *   user (or of some of their sessions), so a grant, a role change or a sign-out reaches
 *   the open app at once.
 */
import { EventEmitter } from "node:events";
import type { SessionEndReason } from "../../schemas/realtime";

export interface ResourceChange {
  /** Resource name (`products`). */
  resource: string;
  /** Module whose grant is needed to receive it. */
  moduleID: number;
  type: "created" | "updated" | "deleted";
  ids: string[];
  /** User who made the change, or null for system changes. */
  actorId: string | null;
}

export type AccountChange =
  /** The user's role or module grants changed; `modules` is what they hold now. */
  | { type: "access-changed"; userId: string; modules: readonly number[] }
  /**
   * Sessions ended: these ones (a device signed out), or every session of the user when
   * `sessionIds` is absent (disabled, deleted).
   */
  | { type: "session-ended"; userId: string; reason: SessionEndReason; sessionIds?: readonly string[] };

export interface Events<T> {
  publish(change: T): void;
  subscribe(listener: (change: T) => void): () => void;
}

export type ResourceEvents = Events<ResourceChange>;
export type AccountEvents = Events<AccountChange>;

/** An in-process event bus of one message type. */
export function createEvents<T>(): Events<T> {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(change) {
      emitter.emit("change", change);
    },
    subscribe(listener) {
      emitter.on("change", listener);
      return () => emitter.off("change", listener);
    },
  };
}

export const createResourceEvents = (): ResourceEvents => createEvents<ResourceChange>();
export const createAccountEvents = (): AccountEvents => createEvents<AccountChange>();
