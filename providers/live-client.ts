/**
 * Refine live provider over the realtime socket (ARCHITECTURE.md §5, docs/resource-api.md
 * "Live updates"): Refine channels `resources/<name>` become `subscribe` calls, the
 * server's `change` events become Refine `LiveEvent`s.
 *
 * The socket follows the session rules of the HTTP client: its `auth` callback reads the
 * access token at every (re)connection; a 417 handshake refreshes the token and reconnects;
 * 401/406 sign out. After every (re)connection the subscribed rooms are joined again.
 *
 * The server's `account` event (issue 13) carries changes to the user themself: a
 * `session-ended` signs out at once with its reason; an `access-changed` (and every
 * reconnection, which may have missed one) is passed to the `watchAccount` listeners, which
 * reload the identity so the menu and open screens follow without a page reload.
 *
 * `createLiveClient` is the testable factory; `providers/live-provider.ts` holds the
 * browser instance.
 */
import type { BaseKey, LiveEvent, LiveProvider } from "@refinedev/core";
import type { Socket } from "socket.io-client";
import type { NotificationMessage } from "../schemas/notifications";
import type {
  AccountMessage,
  ClientToServerEvents,
  Editor,
  PresenceAck,
  ResourceChangeMessage,
  ServerToClientEvents,
  SubscribeAck,
} from "../schemas/realtime";
import { type LogoutReason, logoutReasonOf, refreshFailureReason } from "./session-end";
import { TokenRefreshError } from "./token-refresh";

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** socket.io's `auth` option as a callback, called at every connection attempt. */
export type SocketAuth = (cb: (data: { token?: string }) => void) => void;

export interface LiveClientOptions {
  /**
   * Creates the socket, not connected yet (`autoConnect: false`), passing `auth` as
   * socket.io's `auth` option.
   */
  createSocket: (auth: SocketAuth) => LiveSocket;
  getAccessToken: () => string | undefined;
  /** Gets a new access token (and stores it). */
  refresh: () => Promise<string>;
  /** Ends the session; `reason` says why (the sign-in screen repeats it). */
  onLogout: (reason: LogoutReason) => void;
  /** Where failures are logged; console.error by default. */
  logError?: (message: string) => void;
  /** Delay before retrying after a server error or a server-side disconnect. */
  retryDelayMs?: number;
  /** Told the resources whose changes currently reach this client, after every change of that set. */
  onLiveResources?: (resources: readonly string[]) => void;
}

export interface LiveClient {
  provider: LiveProvider;
  /** Closes the socket and forgets every subscription and account listener (logout). */
  disconnect(): void;
  /**
   * Opens the socket (if no list did yet) and calls `listener` whenever the user's access
   * may have changed: an `access-changed` event, or a reconnection. Returns the unsubscribe.
   */
  watchAccount(listener: () => void): () => void;
  /**
   * Says this page has the record's edit form open, and calls `listener` with everyone who has
   * it open (this user included) now and whenever that changes. Returns the leave.
   */
  watchPresence(resource: string, id: string, listener: (editors: Editor[]) => void): () => void;
  /**
   * Opens the socket (if nothing did yet) and calls `listener` with each `notification`
   * message for the signed-in user (the header's bell). Returns the unsubscribe.
   */
  watchNotifications(listener: (message: NotificationMessage) => void): () => void;
  /** The socket, once the first subscription opened it (for tests and diagnostics). */
  readonly socket: LiveSocket | null;
}

/** What `provider.subscribe` returns and Refine hands back to `unsubscribe`. */
export interface LiveSubscription {
  /** The resource, or null for a channel this provider does not serve. */
  resource: string | null;
  types: readonly string[];
  /** Only events about these records (useOne/useMany); empty = every event. */
  ids: readonly string[];
  callback: (event: LiveEvent) => void;
}

const CHANNEL_PREFIX = "resources/";

/**
 * The resource name of a Refine channel, or null when it is not a resource channel.
 *
 * @example
 * resourceOfChannel("resources/sub-categories"); // "sub-categories"
 * resourceOfChannel("resources/"); // null
 */
export function resourceOfChannel(channel: string): string | null {
  if (!channel.startsWith(CHANNEL_PREFIX)) return null;
  const name = channel.slice(CHANNEL_PREFIX.length);
  return name === "" || name === "undefined" ? null : name;
}

/** The Refine channel of a resource (`resources/products`). */
export const channelOfResource = (resource: string) => `${CHANNEL_PREFIX}${resource}`;

/**
 * A `change` message as a Refine live event.
 *
 * @example
 * toLiveEvent({ resource: "products", type: "created", ids: ["7"] });
 * // { channel: "resources/products", type: "created", payload: { ids: ["7"] }, date }
 */
export function toLiveEvent(message: ResourceChangeMessage, date: Date = new Date()): LiveEvent {
  return {
    channel: channelOfResource(message.resource),
    type: message.type,
    payload: { ids: [...message.ids] },
    date,
  };
}

/** The ids a Refine subscription is about: `params.ids` (useOne/useMany), else none. */
export function idsOfParams(params: { ids?: readonly BaseKey[]; id?: BaseKey } | undefined): string[] {
  const ids = params?.ids?.length ? params.ids : params?.id !== undefined ? [params.id] : [];
  return ids.map(String);
}

/**
 * Whether a subscription wants an event: its types include the event's (or `*`), and
 * when it is about some records, the event names one of them.
 */
export function shouldDeliver(
  subscription: Pick<LiveSubscription, "types" | "ids">,
  event: LiveEvent,
): boolean {
  const { types, ids } = subscription;
  if (!types.includes("*") && !types.includes(event.type)) return false;
  if (ids.length === 0) return true;
  const eventIds = (event.payload.ids ?? []).map(String);
  return eventIds.some((id) => ids.includes(id));
}

/** A refresh is tried this many times in a row before the socket gives up. */
const MAX_REFRESHES_IN_A_ROW = 2;

function statusOf(error: unknown): number | null {
  const status = (error as { data?: { statusCode?: unknown } } | null)?.data?.statusCode;
  return typeof status === "number" ? status : null;
}

/**
 * Builds a live client: one socket, opened at the first subscription and shared by all.
 *
 * @example
 * const live = createLiveClient({ createSocket, getAccessToken, refresh: performRefresh, onLogout: forceLogout });
 * <Refine liveProvider={live.provider} options={{ liveMode: "auto" }} />
 */
export function createLiveClient(options: LiveClientOptions): LiveClient {
  const logError = options.logError ?? ((message: string) => console.error(message));
  const retryDelayMs = options.retryDelayMs ?? 5000;
  const subscriptions = new Map<string, Set<LiveSubscription>>();
  const accountListeners = new Set<() => void>();
  const notificationListeners = new Set<(message: NotificationMessage) => void>();
  /** Whether this socket connected before: a reconnection may have missed account events. */
  let connectedBefore = false;
  let socket: LiveSocket | null = null;
  /** The token of the latest handshake: a 417 with an older one needs no refresh. */
  let sentToken: string | undefined;
  let refreshesInARow = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  /** Rooms joined on the current connection. */
  const joined = new Set<string>();
  const setJoined = (resource: string, on: boolean) => {
    if (on === joined.has(resource)) return;
    if (on) joined.add(resource);
    else joined.delete(resource);
    options.onLiveResources?.([...joined].sort());
  };
  const clearJoined = () => {
    if (!joined.size) return;
    joined.clear();
    options.onLiveResources?.([]);
  };

  const join = (s: LiveSocket, resource: string) => {
    s.timeout(10_000).emit("subscribe", resource, (err: Error | null, answer?: SubscribeAck) => {
      if (err) return; // no answer: the next reconnection subscribes again
      if (answer && !answer.ok) logError(`Live updates for ${resource} refused: ${answer.message}`);
      else if (s === socket && s.connected && subscriptions.has(resource)) setJoined(resource, true);
    });
  };

  /** Edit forms open on this page, by `resource\0id`, with who wants to know who else has them. */
  const presence = new Map<string, { resource: string; id: string; listeners: Set<(e: Editor[]) => void> }>();
  const presenceKey = (resource: string, id: string) => `${resource}\0${id}`;
  const tellEditors = (resource: string, id: string, editors: Editor[]) => {
    for (const listener of [...(presence.get(presenceKey(resource, id))?.listeners ?? [])]) listener(editors);
  };
  const joinPresence = (s: LiveSocket, resource: string, id: string) => {
    s.timeout(10_000).emit("presence:join", resource, id, (err: Error | null, answer?: PresenceAck) => {
      if (err || !answer) return; // no answer: the next reconnection joins again
      if (!answer.ok) logError(`Presence for ${resource} refused: ${answer.message}`);
      else tellEditors(resource, id, answer.editors);
    });
  };

  const dispatch = (message: ResourceChangeMessage) => {
    const subs = subscriptions.get(message.resource);
    if (!subs) return;
    const event = toLiveEvent(message);
    for (const sub of [...subs]) if (shouldDeliver(sub, event)) sub.callback(event);
  };

  const retryLater = (s: LiveSocket) => {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      if (s === socket && !s.connected) s.connect();
    }, retryDelayMs);
  };

  const disconnect = () => {
    clearTimeout(retryTimer);
    const s = socket;
    socket = null;
    subscriptions.clear();
    accountListeners.clear();
    notificationListeners.clear();
    presence.clear();
    connectedBefore = false;
    clearJoined();
    refreshesInARow = 0;
    if (s) {
      s.removeAllListeners();
      s.disconnect();
    }
  };

  // A handshake refused by the server is not retried by socket.io: each answer is handled here.
  const onConnectError = async (s: LiveSocket, error: Error) => {
    const status = statusOf(error);
    if (status === null || s !== socket) return; // transport failure: socket.io retries by itself
    if (status === 401 || status === 406) {
      disconnect();
      options.onLogout(logoutReasonOf(status, error.message));
      return;
    }
    if (status === 417 && refreshesInARow < MAX_REFRESHES_IN_A_ROW) {
      refreshesInARow++;
      const current = options.getAccessToken();
      // Another caller (the HTTP client, the refresh loop) may have refreshed meanwhile;
      // refreshing again would waste, or with a rotated refresh token revoke, the session.
      if (!current || current === sentToken) {
        try {
          await options.refresh();
        } catch (cause) {
          disconnect();
          options.onLogout(
            cause instanceof TokenRefreshError
              ? refreshFailureReason(cause.status, cause.serverMessage)
              : "refresh-failed",
          );
          return;
        }
      }
      if (s === socket) s.connect();
      return;
    }
    logError(`Live updates unavailable: ${error.message}`);
    if (status >= 500 || status === 417) retryLater(s);
  };

  const notifyAccount = () => {
    for (const listener of [...accountListeners]) listener();
  };

  const onAccount = (message: AccountMessage) => {
    if (message.type === "session-ended") {
      disconnect();
      options.onLogout(message.reason);
    } else notifyAccount();
  };

  const open = (): LiveSocket => {
    if (socket) return socket;
    const s = options.createSocket((cb) => {
      sentToken = options.getAccessToken();
      cb({ token: sentToken });
    });
    socket = s;
    s.on("connect", () => {
      refreshesInARow = 0;
      for (const resource of subscriptions.keys()) join(s, resource);
      for (const { resource, id } of presence.values()) joinPresence(s, resource, id);
      if (connectedBefore) notifyAccount();
      connectedBefore = true;
    });
    s.on("connect_error", (error) => {
      void onConnectError(s, error);
    });
    s.on("disconnect", (reason) => {
      clearJoined();
      // The server closed this socket on purpose: socket.io does not reconnect by itself.
      // Reconnecting runs the handshake again, which says whether the session still holds.
      if (reason === "io server disconnect") retryLater(s);
    });
    s.on("change", dispatch);
    s.on("presence", (message) => tellEditors(message.resource, message.id, message.editors));
    s.on("account", onAccount);
    s.on("notification", (message) => {
      for (const listener of [...notificationListeners]) listener(message);
    });
    s.connect();
    return s;
  };

  const provider: LiveProvider = {
    subscribe({ channel, types, callback, params }): LiveSubscription {
      const resource = resourceOfChannel(channel);
      const subscription: LiveSubscription = { resource, types, ids: idsOfParams(params), callback };
      if (resource === null) return subscription;
      let subs = subscriptions.get(resource);
      if (!subs) {
        subs = new Set();
        subscriptions.set(resource, subs);
        const s = open();
        // While disconnected, the `connect` handler subscribes to every resource.
        if (s.connected) join(s, resource);
      }
      subs.add(subscription);
      return subscription;
    },

    unsubscribe(subscription: LiveSubscription) {
      const resource = subscription?.resource;
      if (!resource) return;
      const subs = subscriptions.get(resource);
      if (!subs?.delete(subscription) || subs.size > 0) return;
      subscriptions.delete(resource);
      if (socket?.connected) socket.emit("unsubscribe", resource);
      setJoined(resource, false);
    },
  };

  const watchAccount = (listener: () => void) => {
    accountListeners.add(listener);
    open();
    return () => {
      accountListeners.delete(listener);
    };
  };

  const watchPresence = (resource: string, id: string, listener: (editors: Editor[]) => void) => {
    const key = presenceKey(resource, id);
    let entry = presence.get(key);
    if (!entry) {
      entry = { resource, id, listeners: new Set() };
      presence.set(key, entry);
      const s = open();
      if (s.connected) joinPresence(s, resource, id);
    }
    entry.listeners.add(listener);
    return () => {
      const current = presence.get(key);
      if (!current?.listeners.delete(listener) || current.listeners.size > 0) return;
      presence.delete(key);
      if (socket?.connected) socket.emit("presence:leave", resource, id);
    };
  };

  const watchNotifications = (listener: (message: NotificationMessage) => void) => {
    notificationListeners.add(listener);
    open();
    return () => {
      notificationListeners.delete(listener);
    };
  };

  return {
    provider,
    disconnect,
    watchAccount,
    watchPresence,
    watchNotifications,
    get socket() {
      return socket;
    },
  };
}
