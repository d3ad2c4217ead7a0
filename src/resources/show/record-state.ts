/**
 * What a record screen shows while its record is being read (issue 13): the record, a
 * spinner, a not-found state, or a load error. Pure, so the rule is tested without React.
 */

/** The parts of a react-query result the decision needs. */
export interface RecordQueryState {
  data?: unknown;
  error?: unknown;
  isError: boolean;
  /** Waiting for the network to return (react-query pauses queries while offline). */
  isPaused: boolean;
}

import { statusOf } from "../../lib/errors";

export type RecordState = "ready" | "loading" | "not-found" | "failed";

/**
 * Whether a failure means the record is not there: a 404, or a 400 whose complaint is the
 * id itself (a malformed id in the URL names no record; it is not a form error to show).
 *
 * @example
 * isMissingRecord({ statusCode: 400, errors: { id: "ID must be a valid ID" } }); // true
 * isMissingRecord({ statusCode: 500 });                                        // false
 */
export function isMissingRecord(error: unknown): boolean {
  const status = statusOf(error);
  if (status === 404) return true;
  const errors = (error as { errors?: unknown } | null)?.errors;
  return status === 400 && typeof errors === "object" && errors !== null && "id" in errors;
}

/**
 * The state of a record screen. A record already on screen stays when a background refresh
 * fails; a missing id is not found without asking the server.
 *
 * @example
 * recordState("not-a-uuid", { isError: true, isPaused: false, error: { statusCode: 400, errors: { id: "…" } } });
 * // "not-found"
 */
export function recordState(id: string | undefined, query: RecordQueryState): RecordState {
  if (!id) return "not-found";
  if (query.data) return "ready";
  if (query.isError) return isMissingRecord(query.error) ? "not-found" : "failed";
  if (query.isPaused) return "failed";
  return "loading";
}
