/**
 * Refine notifications as antd `message` toasts: top-centre, closing after 2000 ms
 * (spec §2, §9), the same look as every other toast of the app. A hook, because antd's
 * themed `message` comes from `App.useApp()`; Refine calls it inside `<Refine>`.
 */
import type { NotificationProvider } from "@refinedev/core";
import { App } from "antd";
import { useMemo } from "react";
import { TOAST_AUTO_CLOSE_MS } from "../src/lib/constants";

/**
 * The notification provider for `<Refine notificationProvider={useMessageNotificationProvider}>`.
 * Errors show the description when there is one, since Refine puts the server's message there
 * ("There was an error creating users" is the title, "Email already taken" the description).
 */
export function useMessageNotificationProvider(): NotificationProvider {
  const { message } = App.useApp();
  return useMemo(
    () => ({
      open: ({ key, message: title, description, type }) => {
        const content = type === "error" && description ? description : title;
        message.open({
          key,
          content,
          type: type === "progress" ? "loading" : type,
          duration: TOAST_AUTO_CLOSE_MS / 1000,
        });
      },
      close: (key) => message.destroy(key),
    }),
    [message],
  );
}
