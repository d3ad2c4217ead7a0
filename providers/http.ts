/**
 * The one HTTP layer of the SPA (spec §4, §7, §8): bearer header on every call, one token
 * refresh for any number of 417 answers with each failed request retried once, logout on
 * 401/406 or on a failed refresh. A request marked `idempotent` (a create) carries one
 * Idempotency-Key across all its sends and is resent after a network failure.
 *
 * `createHttpClient` is the testable factory; `http` and `createServiceClient` are the
 * browser instances wired to the token store.
 */
import axios, {
  type AxiosAdapter,
  AxiosHeaders,
  type AxiosInstance,
  type InternalAxiosRequestConfig,
} from "axios";
import type { DeviceInfo } from "../schemas/auth";
import { UNABLE_TO_REFRESH } from "../src/lib/constants";
import { type EarlyReads, earlyReads } from "./early-reads";
import { createRetryDelayMs, IDEMPOTENCY_HEADER, newIdempotencyKey } from "./idempotency";
import { SERVICE_BASES, type ServiceBase } from "./service-bases";
import { type LogoutReason, logoutReasonOf, refreshFailureReason, rememberLogoutReason } from "./session-end";
import {
  createRefresher,
  createRefreshLoop,
  describeFailure,
  SingleFlight,
  TokenRefreshError,
} from "./token-refresh";
import { clearSession, getAccessToken, tokenStore } from "./token-store";

declare module "axios" {
  interface AxiosRequestConfig {
    /** Set on the single retry after a refresh; such a request is never refreshed again. */
    retriedAfterRefresh?: boolean;
    /**
     * Leaves 401/406/417 to the caller. For sign-in and other public calls, where a 401
     * means "wrong password", not "session over".
     */
    skipSessionHandling?: boolean;
    /**
     * A create: sent with an Idempotency-Key (a new one per call, kept on the 417 retry and
     * on every resend) and resent after a network failure or while the server is still
     * processing the first send, so a lost answer never makes a second record.
     */
    idempotent?: boolean;
    /** Sends of an idempotent request so far (set by the client). */
    idempotentAttempt?: number;
  }
}

export type { LogoutReason };

export interface HttpClientOptions {
  baseURL?: string;
  getAccessToken: () => string | undefined;
  /** Gets a new access token (and stores it); resolves with it. */
  refresh: () => Promise<string>;
  onLogout: (reason: LogoutReason) => void;
  /** Where "no response" failures are logged; console.error by default. */
  logError?: (message: string) => void;
  /** Waits before resending an idempotent request (tests pass a recorder). */
  wait?: (ms: number) => Promise<void>;
  /** Reads the shell started before the app's code came (early-reads.ts): a GET may be answered by one. */
  early?: EarlyReads;
}

const BEARER = /^Bearer (.+)$/;

/** The `message` of an error body (`{ statusCode, error, message }`), if any. */
const messageOf = (data: unknown): unknown => (data as { message?: unknown } | null)?.message;

/** Why a refresh failed: the server's 406 words when it gave them, else 'Unable to refresh token'. */
const refreshFailure = (cause: unknown): LogoutReason =>
  cause instanceof TokenRefreshError
    ? refreshFailureReason(cause.status, cause.serverMessage)
    : "refresh-failed";

function sentToken(config: InternalAxiosRequestConfig): string | undefined {
  const header = config.headers.get("Authorization");
  return typeof header === "string" ? BEARER.exec(header)?.[1] : undefined;
}

/**
 * Axios's own adapter, but a GET is answered by the read the shell started for the same URL
 * when there is one and it succeeded (early-reads.ts); every GET tells it what the app reads.
 */
function earlyAdapter(early: EarlyReads, instance: () => AxiosInstance): AxiosAdapter {
  const send = axios.getAdapter(axios.defaults.adapter);
  return async (config) => {
    if ((config.method ?? "get").toLowerCase() !== "get" || config.retriedAfterRefresh) return send(config);
    const url = instance().getUri(config);
    early.sent(url);
    const answer = await early.take(url);
    if (!answer || answer.status < 200 || answer.status >= 300) return send(config);
    return {
      data: answer.data,
      status: answer.status,
      statusText: "OK",
      headers: AxiosHeaders.from(answer.headers),
      config,
      request: {},
    };
  };
}

/**
 * Builds an axios instance with the session rules.
 *
 * @example
 * const client = createHttpClient({ baseURL, getAccessToken, refresh: performRefresh, onLogout: forceLogout });
 * const { data } = await client.get<MeResponse>("/api/users/me");
 */
export function createHttpClient(options: HttpClientOptions): AxiosInstance {
  const { early } = options;
  const instance = axios.create({
    baseURL: options.baseURL,
    adapter: early && earlyAdapter(early, () => instance),
  });
  const logError = options.logError ?? ((message: string) => console.error(message));
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  /** Resends an idempotent request, same config and so the same key, when that is safe. */
  const resend = async (config: InternalAxiosRequestConfig, error: unknown) => {
    const attempt = config.idempotentAttempt ?? 1;
    const delay = config.idempotent ? createRetryDelayMs(error, attempt) : null;
    if (delay === null) throw error;
    await wait(delay);
    config.idempotentAttempt = attempt + 1;
    return instance.request(config);
  };

  const refreshFlight = new SingleFlight(async () => {
    try {
      return await options.refresh();
    } catch (cause) {
      // Inside the shared flight, so N queued requests log out once, not N times.
      options.onLogout(refreshFailure(cause));
      throw new Error(UNABLE_TO_REFRESH, { cause });
    }
  });

  instance.interceptors.request.use(async (config) => {
    // A request made while a refresh runs waits for it, rather than earning its own 417.
    const pending = refreshFlight.pending;
    if (pending && !config.skipSessionHandling) await pending.catch(() => undefined);
    // Set once: a resent config keeps its key, which is what makes the resend safe.
    if (config.idempotent && !config.headers.has(IDEMPOTENCY_HEADER)) {
      config.headers.set(IDEMPOTENCY_HEADER, newIdempotencyKey());
    }
    if (!config.headers.has("Authorization")) {
      const token = options.getAccessToken();
      if (token) config.headers.set("Authorization", `Bearer ${token}`);
    }
    return config;
  });

  instance.interceptors.response.use(undefined, async (error: unknown) => {
    if (!axios.isAxiosError(error) || !error.config) throw error;
    const config = error.config;
    if (!error.response) {
      logError(
        `No response from server: ${config.method?.toUpperCase()} ${config.url} (${describeFailure(error)})`,
      );
      return resend(config, error);
    }
    if (config.skipSessionHandling) throw error;

    const status = error.response.status;
    if (status === 401 || status === 406) {
      options.onLogout(logoutReasonOf(status, messageOf(error.response.data)));
      throw error;
    }
    if (status === 409) return resend(config, error);
    if (status !== 417 || config.retriedAfterRefresh) throw error;

    // If the token changed since this request left (another request's refresh finished
    // meanwhile), the new one is used as is: refreshing again would be wasted or, with a
    // rotated refresh token, fatal.
    const current = options.getAccessToken();
    const token = current && current !== sentToken(config) ? current : await refreshFlight.run();
    config.retriedAfterRefresh = true;
    config.headers.set("Authorization", `Bearer ${token}`);
    return instance.request(config);
  });

  return instance;
}

/** Where the app's sign-in screen lives (the SPA is served under /manage). */
export const LOGIN_PATH = "/manage/login";

/**
 * Refreshes the access token with the stored refresh token (POST
 * `{api}/api/auth/refreshtokenapp`); saves the new pair and resolves with the access token.
 * Concurrent calls share one request.
 */
export const performRefresh: () => Promise<string> = createRefresher({
  url: `${SERVICE_BASES.api}/api/auth/refreshtokenapp`,
  store: tokenStore,
});

let loggingOut = false;

/**
 * Ends the session: tokens and local storage cleared (device id and build date kept), then
 * a full navigation to the sign-in screen, which also resets all application state. Runs
 * once however many failing requests call it; on the sign-in screen it only clears, so a
 * 401 there cannot reload the page in a loop. A `reason` with words (disabled, device
 * signed out, refresh failed) is shown by the sign-in screen; none for a sign-out the user
 * asked for.
 */
export function forceLogout(reason?: LogoutReason): void {
  if (loggingOut) return;
  clearSession();
  if (reason) rememberLogoutReason(reason);
  if (typeof window === "undefined" || window.location.pathname === LOGIN_PATH) return;
  loggingOut = true;
  window.location.assign(LOGIN_PATH);
}

const browserOptions = (baseURL: string): HttpClientOptions => ({
  baseURL,
  getAccessToken,
  refresh: performRefresh,
  onLogout: forceLogout,
  early: earlyReads,
});

/**
 * The API client (`{api}` base).
 *
 * @example
 * const { data } = await http.get<MeResponse>("/api/users/me");
 */
export const http: AxiosInstance = createHttpClient(browserOptions(SERVICE_BASES.api));

/**
 * A client for another service base with the same session rules; all clients share one
 * refresh.
 *
 * @example
 * const cms = createServiceClient("cms");
 */
export function createServiceClient(base: ServiceBase): AxiosInstance {
  return createHttpClient(browserOptions(SERVICE_BASES[base]));
}

/**
 * Keeps the access token fresh while signed in (spec §4: 1 minute before expiry).
 * Call once at start-up; returns a stop function.
 */
export function startTokenRefresh(): () => void {
  return createRefreshLoop({ store: tokenStore, refresh: performRefresh, onSessionEnded: forceLogout });
}

/**
 * Tells the server this device signed out (POST `{api}/clients/logout`), as a `keepalive`
 * fetch: the browser delivers it even when the page navigates away or closes right after,
 * so the caller need not wait for it before clearing the session and leaving. Never
 * rejects: failures are only logged (spec §7). Not through `http`, so a 401 here cannot
 * start a second logout.
 *
 * @example
 * void logoutRequest(getDeviceInfo()); // the token is read now
 * forceLogout();
 */
export function logoutRequest(
  deviceInfo: DeviceInfo,
  baseURL: string = SERVICE_BASES.api,
  send: typeof fetch = (...args) => fetch(...args),
): Promise<void> {
  const token = getAccessToken();
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return send(`${baseURL}/clients/logout`, {
      method: "POST",
      keepalive: true,
      headers,
      body: JSON.stringify({ deviceInfo }),
    }).then(
      (response) => {
        if (!response.ok) console.error(`Logout request answered ${response.status}`);
      },
      (error: unknown) => console.error(`Logout request failed (${describeFailure(error)})`),
    );
  } catch (error) {
    console.error(`Logout request failed (${describeFailure(error)})`);
    return Promise.resolve();
  }
}
