/**
 * Sockets as the server tests use them: a browser's connection, and the events it received
 * with a wait for one.
 */
import { io, type Socket } from "socket.io-client";
import { SOCKET_PATH } from "../../schemas/realtime";

/** PUBLIC_URL of the test servers: the origin a browser's socket comes from. */
export const TEST_ORIGIN = "https://atelier.example.test";

/**
 * A browser's socket on the server at `baseUrl`: same origin, the access token in `auth`,
 * connected (or the handshake's error). Each is pushed to `opened`, for the test to close.
 */
export async function openSocket(
  baseUrl: string,
  token: string,
  opened: Socket[],
  namespace = "/",
): Promise<Socket> {
  const socket = io(`${baseUrl}${namespace}`, {
    path: SOCKET_PATH,
    auth: { token },
    extraHeaders: { origin: TEST_ORIGIN },
    forceNew: true,
  });
  opened.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  return socket;
}

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
