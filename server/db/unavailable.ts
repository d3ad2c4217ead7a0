/**
 * Tells "the database cannot be reached right now" apart from every other database error, so
 * the error handler answers 503 (try again) instead of 500 (a bug) while PostgreSQL restarts,
 * fails over or drops our connections. Everything not listed here keeps its usual mapping.
 */

/** Socket-level failures: the server is not there, or the connection to it broke. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENETDOWN",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs of a server that is going away or not ready: admin_shutdown (57P01),
 * crash_shutdown (57P02), cannot_connect_now (57P03, starting up or shutting down),
 * too_many_connections (53300), and query_canceled (57014), which is how our own
 * statement_timeout ends a statement that a sick server could not finish.
 * Class 08 (connection exception) is matched by prefix.
 */
const SERVER_CODES = new Set(["57P01", "57P02", "57P03", "53300", "57014"]);

/** Messages of node-postgres (pg, pg-pool) for a lost or unobtainable connection. */
const CLIENT_MESSAGES = [
  /^Connection terminated/, // "… unexpectedly", "… due to connection timeout"
  /^timeout exceeded when trying to connect/, // pg-pool's connectionTimeoutMillis
  /^timeout expired$/, // pg.Client's connectionTimeoutMillis
  /^Query read timeout/, // pg's query_timeout
  /is not queryable/, // "Client has encountered a connection error and is not queryable"
  /^Cannot use a pool after calling end on the pool/, // shutting down
];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/**
 * True when `error` means the database is unreachable or unavailable for now (a retry later
 * may succeed): connection refused/reset/timed out, connection terminated, SQLSTATE class 08,
 * 57P01/57P02/57P03, too many connections, or a pool connection timeout. Looks through
 * `cause` and AggregateError's `errors` (Node reports each address it tried).
 *
 * @example
 * isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })); // true
 * isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" })); // false
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 4) return false;
  const e = error as ErrorLike;
  if (typeof e.code === "string") {
    if (NETWORK_CODES.has(e.code) || SERVER_CODES.has(e.code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  if (typeof e.message === "string" && CLIENT_MESSAGES.some((re) => re.test(e.message as string))) {
    return true;
  }
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) {
    return true;
  }
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** The 503 answer's message and how long clients should wait before retrying, seconds. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  "The database is unavailable right now. Please try again in a moment.";
export const DATABASE_RETRY_AFTER_S = 5;
