/**
 * How long a session may live, besides the sliding expiry of its refresh tokens:
 * - an absolute lifetime from sign-in (`SESSION_MAX_AGE`), which no refresh extends;
 * - an optional idle timeout (`SESSION_IDLE_TIMEOUT`, 0 = off): a session with no request and
 *   no refresh for that long ends.
 * Past either limit, a request or a refresh answers 401 and the session is revoked with the
 * reason returned here. Pure rules; the callers do the writes.
 */
import type { Config } from "../config";

/**
 * `sessions.last_active_at` is written at most this often per session, so activity tracking
 * costs one small update a minute, not one per request (more often only for an idle timeout
 * under four minutes, see `activityWriteInterval`).
 */
export const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

/** How stale `last_active_at` may get before a lookup writes it: a quarter of the idle window at most. */
export function activityWriteInterval(config: LifetimeConfig): number {
  if (config.sessionIdleTimeout <= 0) return ACTIVITY_WRITE_INTERVAL_MS;
  return Math.min(ACTIVITY_WRITE_INTERVAL_MS, (config.sessionIdleTimeout * 1000) / 4);
}

export type SessionEnd = "expired" | "idle";

export interface SessionTimes {
  createdAt: Date;
  lastActiveAt: Date;
}

type LifetimeConfig = Pick<Config, "sessionMaxAge" | "sessionIdleTimeout">;

export const SESSION_END_MESSAGES: Record<SessionEnd, string> = {
  expired: "Your session has reached its maximum age; please sign in again",
  idle: "Your session ended after a period of inactivity; please sign in again",
};

/** When the session ends whatever happens (ms since epoch). */
export function absoluteDeadline(createdAt: Date, config: LifetimeConfig): number {
  return createdAt.getTime() + config.sessionMaxAge * 1000;
}

/**
 * Which limit a session has passed at `now`, if any. The absolute lifetime wins when both
 * have, since it is the one no activity could have avoided.
 *
 * @example
 * sessionLimitReached({ createdAt, lastActiveAt }, config); // "idle" | "expired" | null
 */
export function sessionLimitReached(
  times: SessionTimes,
  config: LifetimeConfig,
  now = Date.now(),
): SessionEnd | null {
  if (absoluteDeadline(times.createdAt, config) <= now) return "expired";
  if (config.sessionIdleTimeout > 0 && times.lastActiveAt.getTime() + config.sessionIdleTimeout * 1000 <= now)
    return "idle";
  return null;
}

/**
 * How long a checked session may be served from the principal cache: never past its
 * absolute deadline, and with an idle timeout no longer than half the idle window after the
 * recorded activity, so a session in use is looked up (and its activity written) before
 * the idle deadline comes.
 */
export function cacheDeadline(times: SessionTimes, config: LifetimeConfig): number {
  const absolute = absoluteDeadline(times.createdAt, config);
  if (config.sessionIdleTimeout <= 0) return absolute;
  return Math.min(absolute, times.lastActiveAt.getTime() + (config.sessionIdleTimeout * 1000) / 2);
}

/** A refresh token's expiry: the sliding TTL, never past the session's absolute deadline. */
export function refreshExpiry(
  createdAt: Date,
  config: LifetimeConfig & Pick<Config, "refreshTokenTtl">,
  now = Date.now(),
) {
  return new Date(Math.min(now + config.refreshTokenTtl * 1000, absoluteDeadline(createdAt, config)));
}

/** Whether `last_active_at` is old enough to be written again. */
export const activityIsStale = (lastActiveAt: Date, config: LifetimeConfig, now = Date.now()) =>
  now - lastActiveAt.getTime() >= activityWriteInterval(config);
