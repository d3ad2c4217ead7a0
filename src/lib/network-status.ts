/**
 * Online/offline watching (spec §2: a persistent 'You are offline' warning when the
 * network drops, a 2-second 'You are online' toast when it returns). The toasts belong to
 * the UI; this only wires the window events so the wiring can be tested without a browser.
 */

export type NetworkEvent = "online" | "offline";

/** The part of `window` that is used; a `Window` satisfies it. */
export interface NetworkEventTarget {
  addEventListener(type: NetworkEvent, listener: () => void): void;
  removeEventListener(type: NetworkEvent, listener: () => void): void;
}

/**
 * Calls `offline` and `online` as the browser's connectivity changes; returns a function
 * that stops watching (for a React effect's cleanup).
 *
 * @example
 * useEffect(() => watchNetworkStatus(window, {
 *   offline: () => toast.warning(OFFLINE_MESSAGE, { persistent: true }),
 *   online: () => toast.success(ONLINE_MESSAGE, { duration: ONLINE_TOAST_MS }),
 * }), []);
 */
export function watchNetworkStatus(
  target: NetworkEventTarget,
  handlers: { offline: () => void; online: () => void },
): () => void {
  // Wrappers, so the listeners removed are exactly the ones added even if the
  // caller passes the same function for both events.
  const onOffline = () => handlers.offline();
  const onOnline = () => handlers.online();
  target.addEventListener("offline", onOffline);
  target.addEventListener("online", onOnline);
  return () => {
    target.removeEventListener("offline", onOffline);
    target.removeEventListener("online", onOnline);
  };
}
