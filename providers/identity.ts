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
}

/**
 * Creates the identity loader over Refine's query client.
 *
 * @example
 * const me = createMeLoader(queryClient, http);
 * const { first_name } = await me.load();
 */
export function createMeLoader(queryClient: QueryClient, client: AxiosInstance, base = "/api"): MeLoader {
  return {
    load: () =>
      queryClient.fetchQuery({
        queryKey: ME_QUERY_KEY,
        queryFn: async () => (await client.get<MeResponse>(`${base}/users/me`)).data,
        staleTime: ME_STALE_MS,
      }),
    clear: () => queryClient.removeQueries({ queryKey: ME_QUERY_KEY }),
  };
}
