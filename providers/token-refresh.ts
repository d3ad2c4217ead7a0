/**
 * Getting a new access token (spec §4, §7): the refresh call itself, shared by the 417
 * handling of every HTTP client and by the scheduled refresh, so that they never run two
 * refreshes at once (a second refresh with an already-rotated refresh token would fail and
 * log the user out).
 */
import axios from "axios";
import type { TokenPair } from "../schemas/auth";
import { type ScheduleOptions, scheduleRefresh } from "./refresh-schedule";
import { type LogoutReason, refreshFailureReason } from "./session-end";
import type { TokenStore } from "./token-store";

/**
 * Runs an async job at most once at a time: callers arriving while it runs share its
 * promise. This is the "queue" of requests waiting for a refresh.
 */
export class SingleFlight<T> {
  readonly #job: () => Promise<T>;
  #current: Promise<T> | null = null;

  constructor(job: () => Promise<T>) {
    this.#job = job;
  }

  /** The running job's promise, or null when idle. */
  get pending(): Promise<T> | null {
    return this.#current;
  }

  /** Joins the running job, or starts one. */
  run(): Promise<T> {
    this.#current ??= new Promise<T>((resolve) => resolve(this.#job())).finally(() => {
      this.#current = null;
    });
    return this.#current;
  }
}

/**
 * The server refused the refresh, or there was no refresh token to send: the session is
 * over. A network failure is not this error (it is axios's own), since the session may
 * still be good once the network is back.
 */
export class TokenRefreshError extends Error {
  readonly status: number | undefined;
  /** The `message` of the server's answer (a 406 says why: disabled, device signed out). */
  readonly serverMessage: string | undefined;

  constructor(message: string, status?: number, serverMessage?: string) {
    super(message);
    this.name = "TokenRefreshError";
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

const hasAccessToken = (data: unknown): data is TokenPair =>
  typeof data === "object" &&
  data !== null &&
  "accessToken" in data &&
  typeof data.accessToken === "string" &&
  data.accessToken !== "";

/**
 * Builds the refresh function: POSTs `{ refreshToken }` to `url` with a bare axios (no
 * interceptors, so a failing refresh cannot trigger another refresh), saves the pair on
 * status 200 and resolves with the new access token; anything else rejects. Concurrent
 * calls share one request.
 *
 * @example
 * const refresh = createRefresher({ url: "/api/auth/refreshtokenapp", store: tokenStore });
 * const accessToken = await refresh();
 */
export function createRefresher(deps: {
  url: string;
  store: Pick<TokenStore, "getRefreshToken" | "saveTokens">;
}): () => Promise<string> {
  const bare = axios.create();
  const flight = new SingleFlight(async () => {
    const refreshToken = deps.store.getRefreshToken();
    if (!refreshToken) throw new TokenRefreshError("No refresh token");
    const response = await bare.post<unknown>(deps.url, { refreshToken }, { validateStatus: () => true });
    if (response.status !== 200 || !hasAccessToken(response.data)) {
      const said = (response.data as { message?: unknown } | null)?.message;
      throw new TokenRefreshError(
        `Token refresh answered ${response.status}`,
        response.status,
        typeof said === "string" ? said : undefined,
      );
    }
    deps.store.saveTokens(response.data);
    return response.data.accessToken;
  });
  return () => flight.run();
}

/**
 * Keeps the access token fresh: schedules a refresh before expiry (see refreshDelayMs) and
 * schedules again whenever tokens are saved, whoever saved them (sign-in, this loop, or a
 * 417 retry). A refusal by the server ends the session via `onSessionEnded`; a network
 * failure is only reported, and the next request's 417 will try again.
 * Returns a function that stops the loop.
 *
 * @example
 * const stop = createRefreshLoop({ store: tokenStore, refresh: performRefresh, onSessionEnded: forceLogout });
 */
export function createRefreshLoop(deps: {
  store: Pick<
    TokenStore,
    "getAccessTokenExpiry" | "getAccessTokenLifetimeMs" | "hasSession" | "onTokensSaved"
  >;
  refresh: () => Promise<unknown>;
  /** Told why: the server's 406 reason, else 'refresh-failed'. */
  onSessionEnded: (reason: LogoutReason) => void;
  schedule?: Pick<ScheduleOptions, "now">;
}): () => void {
  let cancel: (() => void) | undefined;
  const onError = (error: unknown) => {
    if (error instanceof TokenRefreshError)
      deps.onSessionEnded(refreshFailureReason(error.status, error.serverMessage));
    else
      console.warn("Scheduled token refresh failed; will retry on the next request", describeFailure(error));
  };
  const arm = () => {
    cancel?.();
    cancel = undefined;
    const expiry = deps.store.getAccessTokenExpiry();
    if (expiry === null || !deps.store.hasSession()) return;
    const lifetimeMs = deps.store.getAccessTokenLifetimeMs() ?? undefined;
    cancel = scheduleRefresh(expiry, deps.refresh, { ...deps.schedule, lifetimeMs, onError });
  };
  const unsubscribe = deps.store.onTokensSaved(arm);
  arm();
  return () => {
    unsubscribe();
    cancel?.();
  };
}

/** A loggable summary of a failure that never includes request headers (they hold the token). */
export function describeFailure(error: unknown): string {
  if (axios.isAxiosError(error)) return `${error.code ?? "ERR"}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
