/**
 * A socket.io client of a test server, as the admin app opens one (providers/live-client.ts):
 * the app's socket path, the access token as the handshake's auth, a connection of its own,
 * and no reconnecting, so a refused handshake ends the socket instead of retrying behind the
 * test's back. Close it in a `finally` (or the file's afterAll).
 *
 * @example
 * const socket = testSocket(s.baseUrl, admin);
 * const ack = await socket.timeout(5000).emitWithAck("subscribe", "automation-runs");
 */
import { io, type Socket } from "socket.io-client";
import { SOCKET_PATH } from "../../schemas/realtime";

export interface TestSocketOptions {
  /** A namespace other than the default one (`/dam`). */
  namespace?: string;
  /** Extra handshake headers (an Origin). */
  headers?: Record<string, string>;
  /** WebSocket from the start, no long-polling first. */
  websocketOnly?: boolean;
}

export function testSocket(
  baseUrl: string,
  token: string | undefined,
  options: TestSocketOptions = {},
): Socket {
  return io(`${baseUrl}${options.namespace ?? "/"}`, {
    path: SOCKET_PATH,
    auth: token === undefined ? {} : { token },
    forceNew: true,
    reconnection: false,
    extraHeaders: options.headers,
    ...(options.websocketOnly ? { transports: ["websocket"] } : {}),
  });
}
