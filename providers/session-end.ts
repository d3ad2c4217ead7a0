/**
 * Why the system signed the user out, carried to the sign-in screen (issue 13): the account
 * was disabled, the refresh failed (spec §8 'Unable to refresh token'), or this device was
 * signed out from another session. The logout is a full navigation, so the reason travels
 * in a one-shot sessionStorage entry that the sign-in screen shows once and removes.
 *
 * Kept free of axios, Refine and antd: the sign-in screen imports it.
 */
import { ACCOUNT_DISABLED_MESSAGE, DEVICE_SIGNED_OUT_MESSAGE } from "../schemas/auth";
import type { SessionEndReason } from "../schemas/realtime";
import { UNABLE_TO_REFRESH } from "../src/lib/constants";

/**
 * Why a session ended, as the client learns it. "unauthorized" (a 401: bad, expired or
 * revoked token) and "deleted" carry no message.
 */
export type LogoutReason = "unauthorized" | "refresh-failed" | SessionEndReason;

/** What the sign-in screen says: the reason (spec words) and what the user can do. */
export interface LogoutNotice {
  message: string;
  description: string;
}

/** The notice of each reason that has words. */
export const LOGOUT_NOTICES: Readonly<Partial<Record<LogoutReason, LogoutNotice>>> = {
  disabled: {
    message: ACCOUNT_DISABLED_MESSAGE,
    description: "An administrator disabled your account. Ask them to enable it again.",
  },
  "device-signed-out": {
    message: DEVICE_SIGNED_OUT_MESSAGE,
    description: "This device was signed out from another session. Sign in again to continue.",
  },
  "refresh-failed": {
    message: UNABLE_TO_REFRESH,
    description: "Your session could not be renewed. Sign in again to continue.",
  },
};

/** The sessionStorage key of the one-shot reason. */
export const SESSION_END_KEY = "atelier.sessionEnd";

/**
 * The reason of a 401/406 answer (HTTP or socket handshake), read from its status and the
 * server's message (ARCHITECTURE.md §4: 406 = disabled user or device signed out).
 *
 * @example
 * logoutReasonOf(406, "This account is disabled"); // "disabled"
 * logoutReasonOf(401, "Session revoked");          // "unauthorized"
 */
export function logoutReasonOf(status: number | undefined, message: unknown): LogoutReason {
  if (status === 406 && message === ACCOUNT_DISABLED_MESSAGE) return "disabled";
  if (status === 406 && message === DEVICE_SIGNED_OUT_MESSAGE) return "device-signed-out";
  return "unauthorized";
}

/**
 * The reason of a refused refresh: a 406 says why (disabled, device signed out); anything
 * else is the spec's 'Unable to refresh token'.
 */
export function refreshFailureReason(status: number | undefined, message: unknown): LogoutReason {
  const reason = logoutReasonOf(status, message);
  return reason === "unauthorized" ? "refresh-failed" : reason;
}

type SessionStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const browserStore = (): SessionStore | undefined => {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined; // storage blocked: the sign-in screen just says nothing
  }
};

/** Keeps `reason` (if it has words) for the next sign-in screen. */
export function rememberLogoutReason(reason: LogoutReason, store = browserStore()): void {
  if (!LOGOUT_NOTICES[reason]) return;
  try {
    store?.setItem(SESSION_END_KEY, reason);
  } catch {
    // Quota or privacy mode: losing the explanation must not stop the logout.
  }
}

/** The remembered notice, or null. Read in render; {@link forgetLogoutNotice} once shown. */
export function readLogoutNotice(store = browserStore()): LogoutNotice | null {
  let reason: string | null | undefined;
  try {
    reason = store?.getItem(SESSION_END_KEY);
  } catch {
    return null;
  }
  return (reason && LOGOUT_NOTICES[reason as LogoutReason]) || null;
}

/** Drops the remembered reason, so a later visit to the sign-in screen does not repeat it. */
export function forgetLogoutNotice(store = browserStore()): void {
  try {
    store?.removeItem(SESSION_END_KEY);
  } catch {
    // Nothing to do: the entry dies with the tab anyway.
  }
}
