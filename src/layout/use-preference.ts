/**
 * One of the signed-in user's preferences (`/api/me/preferences/:key`), read once per session
 * through Refine's query client and saved on every change. Kept on the server, not in local
 * storage: signing out clears local storage (spec §8), and the choice follows the user to
 * another device.
 */
import { useGetIdentity } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef } from "react";
import { http } from "../../providers/http";
import type { MeResponse } from "../../schemas/auth";
import type { PreferenceRecord } from "../../schemas/preferences";

const path = (key: string) => `/api/me/preferences/${encodeURIComponent(key)}`;

export interface Preference<T> {
  /** The saved value; null when never set (or while loading, see `ready`). */
  value: T | null;
  /** False until the saved value is known (or could not be read): render defaults only then. */
  ready: boolean;
  /** Sets the value at once on this screen and saves it; null forgets it. */
  save: (value: T | null) => void;
}

/**
 * Saves one key's values in order, the last one winning: a change made while the previous
 * save is on its way is sent after it, and changes in between are skipped.
 */
function useLatestSaver(key: string) {
  const state = useRef<{ running: boolean; next?: { value: unknown } }>({ running: false });
  return useCallback(
    (value: unknown) => {
      const s = state.current;
      s.next = { value };
      if (s.running) return;
      s.running = true;
      void (async () => {
        while (s.next) {
          const { value: latest } = s.next;
          s.next = undefined;
          try {
            if (latest === null) await http.delete(path(key));
            else await http.put(path(key), { value: latest });
          } catch (error) {
            // The choice still holds on this screen; it is only not remembered.
            console.warn(`Preference ${key} was not saved`, error);
          }
        }
        s.running = false;
      })();
    },
    [key],
  );
}

/**
 * @example
 * const { value: collapsed, save } = usePreference<boolean>(PREFERENCE_KEYS.menuClose);
 */
export function usePreference<T>(key: string): Preference<T> {
  const { data: me } = useGetIdentity<MeResponse>();
  const userId = me?.userID;
  const queryClient = useQueryClient();
  const queryKey = ["atelier", "preferences", userId, key];
  const query = useQuery({
    queryKey,
    queryFn: async () => (await http.get<PreferenceRecord<T>>(path(key))).data.value,
    enabled: Boolean(userId),
    // Only this user changes it, through `save` below, which updates the cache.
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
  const send = useLatestSaver(key);
  // The same function while the user and key are (a memoised control taking it is not drawn again).
  const save = useCallback(
    (value: T | null) => {
      const queryKey = ["atelier", "preferences", userId, key];
      // A read still on its way would land after this change and undo it: the change wins.
      void queryClient.cancelQueries({ queryKey, exact: true });
      queryClient.setQueryData(queryKey, value);
      send(value);
    },
    [queryClient, userId, key, send],
  );
  return {
    value: query.data ?? null,
    // Offline, the read waits for the connection: the screen goes on with the defaults.
    ready: Boolean(userId) && (query.isSuccess || query.isError || query.fetchStatus === "paused"),
    save,
  };
}
