import { useEffect, useRef, useState } from "react";
import { watchNetworkStatus } from "../lib/network-status";

/**
 * Whether the browser is online, following the window's online/offline events; `onOnline`
 * (optional) runs each time the connection comes back, as the 'You are online' toast shows.
 *
 * @example
 * const online = useOnlineStatus(() => query.refetch());
 */
export function useOnlineStatus(onOnline?: () => void): boolean {
  const [online, setOnline] = useState(() => typeof navigator === "undefined" || navigator.onLine);
  // A ref, so a caller's inline callback does not re-subscribe on every render.
  const callback = useRef(onOnline);
  callback.current = onOnline;

  useEffect(
    () =>
      watchNetworkStatus(window, {
        offline: () => setOnline(false),
        online: () => {
          setOnline(true);
          callback.current?.();
        },
      }),
    [],
  );

  return online;
}
