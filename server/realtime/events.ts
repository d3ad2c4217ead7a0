/**
 * Resource change events. The engine publishes here after each committed write; the
 * realtime layer (socket.io) fans them out to browsers that may see that resource.
 */
import { EventEmitter } from "node:events";

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

export interface ResourceEvents {
  publish(change: ResourceChange): void;
  subscribe(listener: (change: ResourceChange) => void): () => void;
}

export function createResourceEvents(): ResourceEvents {
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
