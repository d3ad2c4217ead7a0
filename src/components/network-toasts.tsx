import { App } from "antd";
import { useEffect } from "react";
import { OFFLINE_MESSAGE, ONLINE_MESSAGE, ONLINE_TOAST_MS } from "../lib/constants";
import { watchNetworkStatus } from "../lib/network-status";

/** One key, so 'You are online' replaces the persistent 'You are offline' toast. */
export const NETWORK_TOAST_KEY = "network-status";

/** Shows the offline/online toasts of spec §2. Renders nothing. */
export function NetworkToasts() {
  const { message } = App.useApp();

  useEffect(() => {
    const offline = () =>
      message.open({ key: NETWORK_TOAST_KEY, type: "warning", content: OFFLINE_MESSAGE, duration: 0 });
    if (!navigator.onLine) offline();
    return watchNetworkStatus(window, {
      offline,
      online: () =>
        message.open({
          key: NETWORK_TOAST_KEY,
          type: "success",
          content: ONLINE_MESSAGE,
          duration: ONLINE_TOAST_MS / 1000,
        }),
    });
  }, [message]);

  return null;
}
