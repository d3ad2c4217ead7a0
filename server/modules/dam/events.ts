/** Asset manager changes, published after each commit and pushed on the `/dam` socket namespace. */
import { EventEmitter } from "node:events";
import type { DamChange } from "../../../schemas/dam";

export interface DamEvents {
  publish(change: DamChange): void;
  subscribe(listener: (change: DamChange) => void): () => void;
}

export function createDamEvents(): DamEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (change) => void emitter.emit("change", change),
    subscribe(listener) {
      emitter.on("change", listener);
      return () => emitter.off("change", listener);
    },
  };
}
