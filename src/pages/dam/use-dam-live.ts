/**
 * Live updates of the asset manager: a socket to the DAM socket namespace (`/dam` by
 * default) while a DAM screen is open. Every `dam:change` refreshes the DAM queries, so a
 * second admin's browser shows folders and assets as they are created, moved or deleted.
 *
 * The handshake carries the access token like the main live socket
 * (providers/live-client.ts): a 417 refreshes the token once and reconnects, 401/406 sign out.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { io, type Socket } from "socket.io-client";
import { forceLogout, performRefresh } from "../../../providers/http";
import { SERVICE_BASES } from "../../../providers/service-bases";
import { getAccessToken } from "../../../providers/token-store";
import { DAM_CHANGE_EVENT, type DamChange } from "../../../schemas/dam";
import { SOCKET_PATH } from "../../../schemas/realtime";
import { damKeys } from "./dam-api";

const statusOf = (error: unknown) => (error as { data?: { statusCode?: number } }).data?.statusCode;

/** Opens the `/dam` socket for the lifetime of the calling screen; calls `onChange` too, if given. */
export function useDamLive(onChange?: (change: DamChange) => void): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    const socket: Socket = io(SERVICE_BASES.damSocket, {
      path: SOCKET_PATH,
      auth: (cb) => cb({ token: getAccessToken() }),
    });
    // The namespace shares the main live socket's connection when that is open, and takes its
    // manager's options, `autoConnect: false` among them (providers/live-provider.ts): connect
    // explicitly, or it never would.
    socket.connect();
    let refreshed = false;
    socket.on("connect", () => {
      refreshed = false;
      document.documentElement.dataset.damLive = "on";
      // Anything missed while disconnected.
      void queryClient.invalidateQueries({ queryKey: damKeys.all });
    });
    socket.on("disconnect", () => {
      document.documentElement.dataset.damLive = "off";
    });
    socket.on("connect_error", async (error) => {
      const status = statusOf(error);
      if (status === 401 || status === 406) {
        socket.close();
        forceLogout();
      } else if (status === 417 && !refreshed) {
        refreshed = true;
        await performRefresh().then(
          () => socket.connect(),
          () => undefined,
        );
      }
    });
    socket.on(DAM_CHANGE_EVENT, (change: DamChange) => {
      void queryClient.invalidateQueries({ queryKey: damKeys.all });
      onChange?.(change);
    });
    return () => {
      socket.close();
      delete document.documentElement.dataset.damLive;
    };
  }, [queryClient, onChange]);
}
