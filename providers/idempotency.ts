/**
 * Idempotent creates, the client half (server/http/idempotency.ts is the other): each logical
 * create carries one random `Idempotency-Key`, kept on every resend of it, so a create whose
 * answer was lost is answered again by the server instead of being made twice.
 */
import axios from "axios";

/** The header the server reads. */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/** Sends of one create at most: the first and two resends. */
export const MAX_CREATE_ATTEMPTS = 3;

/** The longest wait before a resend, whatever the server's Retry-After says. */
const MAX_WAIT_MS = 10_000;

/**
 * A fresh key: 128 random bits as hex. `crypto.getRandomValues`, unlike `randomUUID`, also
 * works on a plain-http origin (not a secure context).
 *
 * @example
 * newIdempotencyKey(); // "9f0c2d4e5a6b7c8d9e0f1a2b3c4d5e6f"
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * How long to wait before resending a create that failed with `error` on attempt number
 * `attempt` (1-based), or null when it must not be resent. Resent: a network failure (the
 * create may or may not have reached the server: the key makes the resend safe) and the
 * server's "still being processed" 409, which carries Retry-After. Anything else, and a
 * request the caller cancelled, is final.
 *
 * @example
 * createRetryDelayMs(networkError, 1); // 1000
 * createRetryDelayMs(conflictWithRetryAfter1, 2); // 1000
 * createRetryDelayMs(validationError, 1); // null
 */
export function createRetryDelayMs(error: unknown, attempt: number): number | null {
  if (attempt >= MAX_CREATE_ATTEMPTS || !axios.isAxiosError(error) || axios.isCancel(error)) return null;
  const response = error.response;
  if (!response) return Math.min(1000 * 2 ** (attempt - 1), MAX_WAIT_MS);
  const retryAfter = Number(response.headers?.["retry-after"]);
  if (response.status === 409 && Number.isFinite(retryAfter) && retryAfter >= 0) {
    return Math.min(retryAfter * 1000, MAX_WAIT_MS);
  }
  return null;
}
