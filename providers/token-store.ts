/**
 * Where the session lives in the browser (spec §9): access and refresh tokens in cookies
 * kept for one year, their expiry times in localStorage.
 *
 * The store is a factory over injected cookie and storage access so it can be tested under
 * Node; the named exports below are the browser instance (js-cookie + localStorage).
 */
import Cookies from "js-cookie";
import type { TokenPair } from "../schemas/auth";
import { BUILD_DATE_KEY } from "../src/lib/build-version";
import { DEVICE_ID_KEY } from "../src/lib/device";

export const ACCESS_TOKEN_COOKIE = "accessToken";
export const REFRESH_TOKEN_COOKIE = "refreshToken";
/** Cookies outlive the tokens on purpose: the server, not the cookie, decides expiry. */
export const TOKEN_COOKIE_DAYS = 365;

export const ACCESS_TOKEN_EXPIRY_KEY = "accessTokenExpiry";
export const REFRESH_TOKEN_EXPIRY_KEY = "refreshTokenExpiry";
/** Lifetime of the access token in seconds, as sent; the refresh schedule needs it. */
export const ACCESS_TOKEN_DURATION_KEY = "accessTokenDuration";

/**
 * Keys that survive {@link TokenStore.clearSession}. The device id is generated once per
 * browser (spec §9): wiping it at logout would make every sign-in look like a new device
 * in the user's device list. The build date must survive so the stale-build check keeps
 * working across sessions.
 */
export const PRESERVED_STORAGE_KEYS: readonly string[] = [DEVICE_ID_KEY, BUILD_DATE_KEY];

/** The cookie operations the store needs. */
export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  remove(name: string): void;
}

export interface TokenStore {
  /** Saves a sign-in or refresh answer. A pair without a refresh token keeps the old one. */
  saveTokens(pair: TokenPair): void;
  getAccessToken(): string | undefined;
  getRefreshToken(): string | undefined;
  /** Epoch ms, or null when unknown. */
  getAccessTokenExpiry(): number | null;
  /** Epoch ms, or null when unknown. */
  getRefreshTokenExpiry(): number | null;
  /** Lifetime of the current access token in ms, or null when unknown. */
  getAccessTokenLifetimeMs(): number | null;
  /** Removes both cookies and clears localStorage except {@link PRESERVED_STORAGE_KEYS}. */
  clearSession(): void;
  /** True while an access token is held (an expired one still counts: it can be refreshed). */
  hasSession(): boolean;
  /** Calls `listener` after every save; returns the unsubscribe function. */
  onTokensSaved(listener: (pair: TokenPair) => void): () => void;
}

const secureContext = (): boolean => globalThis.location?.protocol === "https:";

/**
 * The js-cookie jar: one year, whole site, first-party only, and `Secure` over HTTPS (a
 * Secure cookie would be dropped on plain-HTTP development servers).
 */
export function createCookieJar(api: Cookies.CookiesStatic = Cookies): CookieJar {
  const attributes = (): Cookies.CookieAttributes => ({
    expires: TOKEN_COOKIE_DAYS,
    path: "/",
    sameSite: "strict",
    secure: secureContext(),
  });
  return {
    get: (name) => api.get(name),
    set: (name, value) => {
      api.set(name, value, attributes());
    },
    remove: (name) => api.remove(name, { path: "/" }),
  };
}

const readNumber = (text: string | null | undefined): number | null => {
  if (text == null || text.trim() === "") return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
};

/**
 * Builds a token store.
 *
 * @example
 * const store = createTokenStore({ cookies: createCookieJar(), storage: () => localStorage });
 * store.saveTokens(pair);
 * store.getAccessToken(); // pair.accessToken
 */
export function createTokenStore(deps: {
  cookies: CookieJar;
  storage: () => Storage | undefined;
  now?: () => number;
}): TokenStore {
  const now = deps.now ?? Date.now;
  const listeners = new Set<(pair: TokenPair) => void>();

  // Storage access throws in some sandboxed frames; the session then simply has no expiry.
  const storage = (): Storage | undefined => {
    try {
      return deps.storage();
    } catch {
      return undefined;
    }
  };

  const expiryOf = (expiry: unknown, durationSeconds: unknown): number | undefined => {
    if (typeof expiry === "number" && Number.isFinite(expiry)) return expiry;
    if (typeof durationSeconds === "number" && Number.isFinite(durationSeconds)) {
      return now() + durationSeconds * 1000;
    }
    return undefined;
  };

  const store: TokenStore = {
    saveTokens(pair) {
      deps.cookies.set(ACCESS_TOKEN_COOKIE, pair.accessToken);
      if (pair.refreshToken) deps.cookies.set(REFRESH_TOKEN_COOKIE, pair.refreshToken);
      const local = storage();
      const accessExpiry = expiryOf(pair.accessTokenExpiry, pair.accessTokenDuration);
      const refreshExpiry = expiryOf(pair.refreshTokenExpiry, pair.refreshTokenDuration);
      if (accessExpiry !== undefined) local?.setItem(ACCESS_TOKEN_EXPIRY_KEY, String(accessExpiry));
      if (refreshExpiry !== undefined) local?.setItem(REFRESH_TOKEN_EXPIRY_KEY, String(refreshExpiry));
      if (Number.isFinite(pair.accessTokenDuration)) {
        local?.setItem(ACCESS_TOKEN_DURATION_KEY, String(pair.accessTokenDuration));
      }
      for (const listener of listeners) listener(pair);
    },
    getAccessToken: () => deps.cookies.get(ACCESS_TOKEN_COOKIE) || undefined,
    getRefreshToken: () => deps.cookies.get(REFRESH_TOKEN_COOKIE) || undefined,
    getAccessTokenExpiry: () => readNumber(storage()?.getItem(ACCESS_TOKEN_EXPIRY_KEY)),
    getRefreshTokenExpiry: () => readNumber(storage()?.getItem(REFRESH_TOKEN_EXPIRY_KEY)),
    getAccessTokenLifetimeMs() {
      const seconds = readNumber(storage()?.getItem(ACCESS_TOKEN_DURATION_KEY));
      return seconds === null ? null : seconds * 1000;
    },
    clearSession() {
      deps.cookies.remove(ACCESS_TOKEN_COOKIE);
      deps.cookies.remove(REFRESH_TOKEN_COOKIE);
      const local = storage();
      if (!local) return;
      const kept = PRESERVED_STORAGE_KEYS.map((key) => [key, local.getItem(key)] as const);
      local.clear();
      for (const [key, value] of kept) if (value !== null) local.setItem(key, value);
    },
    hasSession: () => store.getAccessToken() !== undefined,
    onTokensSaved(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
  return store;
}

/** The browser's token store. */
export const tokenStore: TokenStore = createTokenStore({
  cookies: createCookieJar(),
  storage: () => (typeof localStorage === "undefined" ? undefined : localStorage),
});

/**
 * Saves a sign-in or refresh answer: tokens to cookies, expiry times to localStorage.
 *
 * @example
 * saveTokens(await signIn(credentials));
 */
export const saveTokens = (pair: TokenPair): void => tokenStore.saveTokens(pair);
/** The access token cookie, if any. */
export const getAccessToken = (): string | undefined => tokenStore.getAccessToken();
/** The refresh token cookie, if any. */
export const getRefreshToken = (): string | undefined => tokenStore.getRefreshToken();
/** When the access token expires (epoch ms), or null. */
export const getAccessTokenExpiry = (): number | null => tokenStore.getAccessTokenExpiry();
/** When the refresh token expires (epoch ms), or null. */
export const getRefreshTokenExpiry = (): number | null => tokenStore.getRefreshTokenExpiry();
/** How long an access token lives (ms), or null. */
export const getAccessTokenLifetimeMs = (): number | null => tokenStore.getAccessTokenLifetimeMs();
/** Ends the session locally: both cookies gone, localStorage cleared but device_id and buildDateTime kept. */
export const clearSession = (): void => tokenStore.clearSession();
/** True while an access token cookie exists. */
export const hasSession = (): boolean => tokenStore.hasSession();
/** Subscribes to token saves (sign-in and every refresh). */
export const onTokensSaved = (listener: (pair: TokenPair) => void): (() => void) =>
  tokenStore.onTokensSaved(listener);
