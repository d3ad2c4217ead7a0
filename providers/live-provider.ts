/**
 * The browser's live provider: one socket to the socket service base (`{socket}`,
 * path `/socket.io`), opened at the first live subscription, with the session rules of
 * the HTTP client (see providers/live-client.ts).
 *
 * @example
 * <Refine liveProvider={liveProvider} options={{ liveMode: "auto" }} />
 * // on logout:
 * disconnectLive();
 */
import type { LiveProvider } from "@refinedev/core";
import { io, type ManagerOptions, type SocketOptions } from "socket.io-client";
import type { NotificationMessage } from "../schemas/notifications";
import { type Editor, SOCKET_PATH } from "../schemas/realtime";
import { forceLogout, performRefresh } from "./http";
import { createLiveClient, type LiveSocket } from "./live-client";
import { SERVICE_BASES } from "./service-bases";
import { getAccessToken } from "./token-store";

const live = createLiveClient({
  createSocket(auth): LiveSocket {
    const options: Partial<ManagerOptions & SocketOptions> = { path: SOCKET_PATH, autoConnect: false, auth };
    // An empty base means this origin; a URL base is another host (its path would be read
    // as a namespace, so the base must be an origin).
    return SERVICE_BASES.socket ? io(SERVICE_BASES.socket, options) : io(options);
  },
  getAccessToken,
  refresh: performRefresh,
  onLogout: forceLogout,
  // Which lists are live, on <html data-live="products …"> (diagnostics and e2e tests).
  onLiveResources(resources) {
    if (typeof document !== "undefined") document.documentElement.dataset.live = resources.join(" ");
  },
});

/** Refine's liveProvider: channels `resources/<name>`, events created/updated/deleted with `payload.ids`. */
export const liveProvider: LiveProvider = live.provider;

/** Closes the socket and drops every subscription; call on logout. */
export function disconnectLive(): void {
  live.disconnect();
}

/**
 * Calls `listener` when the signed-in user's role or grants may have changed (a live
 * `account` event, or a reconnection that may have missed one); opens the socket if no live
 * list did. A session ended by the server (disabled, device signed out) signs out by itself.
 * Returns the unsubscribe function.
 *
 * @example
 * useEffect(() => watchAccount(() => me.reload()), []);
 */
export function watchAccount(listener: () => void): () => void {
  return live.watchAccount(listener);
}

/**
 * Says this page has a record's edit form open and calls `listener` with everyone who has it
 * open (this user included), now and whenever someone comes or goes. Returns the leave.
 *
 * @example
 * useEffect(() => watchPresence("entries/article", id, setEditors), [id]);
 */
export function watchPresence(
  resource: string,
  id: string,
  listener: (editors: Editor[]) => void,
): () => void {
  return live.watchPresence(resource, id, listener);
}

/**
 * Calls `listener` with each live `notification` message of the signed-in user (a new one,
 * or some read or deleted in another tab); opens the socket if nothing did. Returns the
 * unsubscribe.
 *
 * @example
 * useEffect(() => watchNotifications(() => reloadUnreadCount()), []);
 */
export function watchNotifications(listener: (message: NotificationMessage) => void): () => void {
  return live.watchNotifications(listener);
}
