/**
 * When to refresh the access token (spec §4): 1 minute before expiry, or immediately if
 * that moment has already passed.
 */

/** How long before expiry the refresh happens. */
export const REFRESH_LEAD_MS = 60_000;

/** setTimeout fires at once for delays above 2^31-1 ms (~24.8 days); longer waits are chained. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Milliseconds to wait before refreshing a token that expires at `expiryMs`.
 *
 * Beyond the spec: a token whose whole lifetime is not longer than the lead (tests use
 * 5-second tokens) would be "1 minute before expiry" the moment it is issued, so every
 * refresh would trigger the next at once, in a loop. When `lifetimeMs` says so, the refresh
 * happens at half of the remaining time instead.
 *
 * @example
 * refreshDelayMs(now + 15 * 60_000, now);      // 14 * 60_000
 * refreshDelayMs(now + 30_000, now);           // 0 (less than a minute left)
 * refreshDelayMs(now + 5_000, now, 5_000);     // 2_500 (short-lived token)
 */
export function refreshDelayMs(expiryMs: number, nowMs: number, lifetimeMs?: number): number {
  const remaining = expiryMs - nowMs;
  if (!(remaining > 0)) return 0;
  if (lifetimeMs !== undefined && lifetimeMs <= REFRESH_LEAD_MS) return Math.floor(remaining / 2);
  return Math.max(0, remaining - REFRESH_LEAD_MS);
}

export interface ScheduleOptions {
  /** Lifetime of the token, to handle tokens shorter than the lead (see {@link refreshDelayMs}). */
  lifetimeMs?: number;
  /** Clock, for tests. */
  now?: () => number;
  /** Called when the refresh rejects; by default the failure is logged. */
  onError?: (error: unknown) => void;
}

/**
 * Runs `refresh` once, when {@link refreshDelayMs} says; returns a function that cancels it.
 * The caller schedules again after each new token (see `startTokenRefresh` in http.ts).
 *
 * @example
 * const cancel = scheduleRefresh(getAccessTokenExpiry()!, performRefresh, { lifetimeMs: 900_000 });
 */
export function scheduleRefresh(
  expiryMs: number,
  refresh: () => Promise<unknown>,
  opts: ScheduleOptions = {},
): () => void {
  const now = opts.now ?? Date.now;
  const onError = opts.onError ?? ((error: unknown) => console.warn("Scheduled token refresh failed", error));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;

  const arm = (): void => {
    if (cancelled) return;
    const delay = refreshDelayMs(expiryMs, now(), opts.lifetimeMs);
    if (delay > MAX_TIMER_DELAY_MS) {
      // Re-evaluate after the longest wait a timer allows instead of firing early.
      timer = setTimeout(arm, MAX_TIMER_DELAY_MS);
      return;
    }
    timer = setTimeout(() => {
      if (cancelled) return;
      refresh().catch(onError);
    }, delay);
  };

  arm();
  return () => {
    cancelled = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}
