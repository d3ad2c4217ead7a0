/**
 * The signed-in user (`GET /api/users/me`), loaded once and shared by the auth provider's
 * getIdentity/getPermissions and the access-control provider, through the same react-query
 * client as Refine so the cache, staleness and in-flight de-duplication are Refine's own.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { AxiosInstance } from "axios";
import type { MeResponse } from "../schemas/auth";

export const ME_QUERY_KEY = ["atelier", "me"] as const;

/** How long a loaded identity is reused before it is fetched again. */
export const ME_STALE_MS = 30_000;

export interface MeLoader {
  /** The cached identity, or a fresh one when stale; concurrent calls share one request. */
  load(): Promise<MeResponse>;
  /** Drops the cached identity (sign-in, sign-out, own account edited). */
  clear(): void;
  /**
   * Loads the identity again and re-runs every Refine question that depends on it (identity,
   * permissions, access checks), so the menu, home cards and open screens follow a grant or
   * role change. Until the new answer arrives the old identity stays in use (offline, too).
   */
  reload(): Promise<void>;
}

/** Refine's react-query keys of `useGetIdentity`/`usePermissions` and of `useCan`. */
const REFINE_AUTH_KEYS = [["auth"], ["access"]] as const;

/**
 * Creates the identity loader over Refine's query client.
 *
 * @example
 * const me = createMeLoader(queryClient, http);
 * const { first_name } = await me.load();
 */
export function createMeLoader(queryClient: QueryClient, client: AxiosInstance, base = "/api"): MeLoader {
  const queryFn = async () => (await client.get<MeResponse>(`${base}/users/me`)).data;
  return {
    load: () => queryClient.fetchQuery({ queryKey: ME_QUERY_KEY, queryFn, staleTime: ME_STALE_MS }),
    clear: () => queryClient.removeQueries({ queryKey: ME_QUERY_KEY }),
    async reload() {
      // Fetched first, so the Refine queries below read the new identity, not the cached one.
      await queryClient.fetchQuery({ queryKey: ME_QUERY_KEY, queryFn, staleTime: 0 });
      await Promise.all(REFINE_AUTH_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  };
}
