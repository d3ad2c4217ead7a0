/** When a failed job runs again: the spec's "exponential backoff", as a named rule. */

/** Longest wait between two attempts. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

/**
 * Delay before the next attempt after `attempt` (1-based) failed: 2^attempt seconds
 * (2 s, 4 s, 8 s, …), capped at an hour.
 */
export function retryDelayMs(attempt: number): number {
  return Math.min(2 ** Math.max(attempt, 0) * 1000, MAX_RETRY_DELAY_MS);
}
