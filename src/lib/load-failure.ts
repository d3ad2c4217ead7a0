/**
 * Why a screen's data did not load, in words an admin understands (issue 13: an error state
 * says what failed and why, never an empty list with a Create button). Pure: the caller says
 * whether the browser is online.
 */

export type LoadFailureKind =
  | "offline"
  | "timeout"
  | "server"
  | "no-answer"
  | "not-found"
  | "forbidden"
  | "refused";

/** How long a read may take before it is given up on as timed out. */
export const READ_TIMEOUT_MS = 30_000;

/** axios's codes for a request that ran out of time. */
const TIMEOUT_CODES = new Set(["ECONNABORTED", "ETIMEDOUT"]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/** The HTTP status of a Refine HttpError (`statusCode`, 0 = no answer) or an axios error. */
export function failureStatus(error: unknown): number | undefined {
  if (!isRecord(error)) return undefined;
  if (isRecord(error.response) && typeof error.response.status === "number") return error.response.status;
  return typeof error.statusCode === "number" ? error.statusCode : undefined;
}

/**
 * Classifies a failed load. Offline wins over everything: whatever the request said, the
 * useful thing to tell is that the connection is gone and the screen will come back with it.
 *
 * @example
 * loadFailureKind({ statusCode: 503 }, true);          // "server"
 * loadFailureKind({ code: "ECONNABORTED" }, true);     // "timeout"
 * loadFailureKind({ statusCode: 0 }, false);           // "offline"
 */
export function loadFailureKind(error: unknown, online: boolean): LoadFailureKind {
  if (!online) return "offline";
  const code = isRecord(error) && typeof error.code === "string" ? error.code : undefined;
  if (code && TIMEOUT_CODES.has(code)) return "timeout";
  const status = failureStatus(error);
  if (status === 408 || status === 504) return "timeout";
  if (status === 404) return "not-found";
  if (status === 401 || status === 403) return "forbidden";
  if (status !== undefined && status >= 500) return "server";
  if (status !== undefined && status >= 400) return "refused";
  return "no-answer";
}

/**
 * The reason line under "The … could not be loaded". A refusal (a 4xx other than 403/404)
 * shows the server's own message when it sent one, since that names the problem.
 *
 * @example
 * loadFailureReason("server", 502); // "The server ran into a problem (error 502). Try again in a moment."
 */
export function loadFailureReason(kind: LoadFailureKind, status?: number, serverMessage?: string): string {
  switch (kind) {
    case "offline":
      return "You are offline. This will load again by itself when the connection is back.";
    case "timeout":
      return "The server took too long to answer. Try again in a moment.";
    case "server":
      return `The server ran into a problem${status ? ` (error ${status})` : ""}. Try again in a moment.`;
    case "not-found":
      return "It was not found; it may have been deleted.";
    case "forbidden":
      return "You do not have permission to see it.";
    case "refused":
      return serverMessage ? withFullStop(serverMessage) : "The server refused the request.";
    case "no-answer":
      return "The server did not answer. It may be restarting or out of reach; try again in a moment.";
  }
}

const withFullStop = (text: string): string => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

const DETERMINER = /^(the|this|these|your|my|its|their)\s/i;

/**
 * The title of a load error: "The products could not be loaded". `what` reads after
 * "The" ("products", "product", "security log"); one that brings its own determiner
 * ("this product", "your devices") is kept as is.
 *
 * @example
 * loadFailureTitle("products");     // "The products could not be loaded"
 * loadFailureTitle("your devices"); // "Your devices could not be loaded"
 */
export function loadFailureTitle(what: string): string {
  const subject = DETERMINER.test(what) ? what : `the ${what}`;
  return `${subject.charAt(0).toUpperCase()}${subject.slice(1)} could not be loaded`;
}

/** The parts of a react-query result that say whether a load failed. */
export interface LoadQueryState {
  data?: unknown;
  isError: boolean;
  /** Waiting for the network (react-query pauses a query while the browser is offline). */
  isPaused: boolean;
}

/**
 * Whether a screen shows its load error instead of its data: the last load failed, or it
 * waits offline with nothing to show (a paused query has neither data nor an error, which a
 * screen would otherwise show as empty).
 *
 * @example
 * if (loadFailed(tableQuery)) return <LoadError what="users" error={tableQuery.error} onRetry={() => tableQuery.refetch()} />;
 */
export function loadFailed(query: LoadQueryState): boolean {
  return query.isError || (query.isPaused && query.data === undefined);
}
