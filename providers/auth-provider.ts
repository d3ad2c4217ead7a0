/**
 * Refine auth provider. Session rules (417 refresh, 401/406 logout) belong to the `http`
 * client; this provider only answers Refine's questions and performs sign-in/out.
 */
import type { AuthProvider } from "@refinedev/core";
import type { MeResponse, ModuleEntry } from "../schemas/auth";
import { isSecondFactorChallenge } from "../schemas/second-factor";
import { getDeviceInfo } from "../src/browser/device-info";
import { getErrorMessage } from "../src/lib/errors";
import { modulesOf } from "../src/lib/permissions";
import { signIn } from "./auth-api";
import { forceLogout, logoutRequest } from "./http";
import type { MeLoader } from "./identity";
import { disconnectLive } from "./live-provider";
import { hasSession } from "./token-store";

/** The sign-in route, relative to the router basename. */
export const LOGIN_ROUTE = "/login";

/** What `usePermissions()` returns. */
export interface Permissions {
  isadmin: boolean;
  modules: ModuleEntry[];
}

/**
 * Creates the auth provider over the identity loader.
 *
 * @example
 * <Refine authProvider={createAuthProvider(createMeLoader(queryClient, http))} />
 */
export function createAuthProvider(me: MeLoader): AuthProvider {
  return {
    async login({ email, password }: { email: string; password: string }) {
      try {
        // The sign-in screen handles a second step; this entry point has no screen for one.
        if (isSecondFactorChallenge(await signIn(email, password)))
          return {
            success: false,
            error: {
              name: "Sign-in failed",
              message: "This account signs in with a code: use the sign-in page",
            },
          };
        me.clear();
        return { success: true, redirectTo: "/" };
      } catch (error) {
        return { success: false, error: { name: "Sign-in failed", message: getErrorMessage(error) } };
      }
    },

    async logout() {
      // Sent (with the token read now) before the session is cleared, as a keepalive
      // request the browser delivers even as the page navigates away: no wait for it.
      void logoutRequest(getDeviceInfo());
      me.clear();
      disconnectLive();
      forceLogout();
      return { success: true, redirectTo: LOGIN_ROUTE };
    },

    async check() {
      return hasSession() ? { authenticated: true } : { authenticated: false, redirectTo: LOGIN_ROUTE };
    },

    getIdentity: (): Promise<MeResponse> => me.load(),

    async getPermissions(): Promise<Permissions> {
      const user = await me.load();
      return { isadmin: user.isadmin, modules: modulesOf(user) };
    },

    // Never logs out from here: a 403 means "not this module", not "not signed in" (the
    // screen says so), and 401/406 are already handled by the http client, which logs out.
    onError: async () => ({}),
  };
}
