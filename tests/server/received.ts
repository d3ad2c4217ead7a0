/** Socket events as the server tests read them: everything received, and a wait for one. */
import type { Socket } from "socket.io-client";

/** Every event of one kind a socket received, and a wait for one that matches. */
export class Received<T> {
  readonly seen: T[] = [];
  private waiters: (() => void)[] = [];

  /** `waitMs`: how long `until` waits unless told otherwise (a cap, not a timing check). */
  constructor(
    socket: Socket,
    event: string,
    private readonly waitMs = 30_000,
  ) {
    socket.on(event, (message: T) => {
      this.seen.push(message);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves with the first event (already received or to come) that matches. */
  async until(match: (message: T) => boolean, what: string, ms = this.waitMs): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.seen.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No ${what} within ${ms} ms; received ${JSON.stringify(this.seen)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
