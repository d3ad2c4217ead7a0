/**
 * Sending a form's answers from the browser (`POST /forms/f/{slug}/submissions`, JSON) and
 * reading the server's answer into what the respondent is told. No DOM: enhance.ts shows it.
 */
import type { Answers } from "../../schemas/form-answers";
import { HONEYPOT_FIELD } from "../../schemas/form-definition";
import { CLOSED_MESSAGE } from "./messages";

export interface SubmissionBody {
  answers: Answers;
  tracking: object;
  [HONEYPOT_FIELD]?: string;
}

/** What became of one attempt. */
export type SendOutcome =
  | { kind: "sent" }
  /** The server refused answers: one message per field (field ids), others apart. */
  | { kind: "invalid"; errors: Array<{ field: string; message: string }>; message: string }
  /** Not sent: `retry` says whether trying again as it is may work. */
  | { kind: "failed"; message: string; retry: boolean };

export const SEND_MESSAGES = {
  rateLimited: "Too many answers from your address; try again in a minute",
  network: "Your answer could not be sent: check your connection, then try again.",
  server: "Something went wrong on our side; please try again in a moment.",
  busy: "Your answer is already being sent; please wait a moment.",
  gone: "This form is no longer available.",
  tooLarge: "Your answers are too long to be sent; please shorten them.",
  invalid: "Some answers need your attention.",
} as const;

/**
 * One `Idempotency-Key` per set of answers: trying again with the same answers (a double
 * click, a retry after a lost connection) reuses the key, so the server stores them once;
 * changed answers are a new submission with a new key.
 *
 * @example
 * const keyFor = idempotencyKeys();
 * keyFor('{"a":1}') === keyFor('{"a":1}'); // true
 */
export function idempotencyKeys(newKey: () => string = () => crypto.randomUUID()) {
  let last: { text: string; key: string } | null = null;
  return (bodyText: string) => {
    if (last?.text !== bodyText) last = { text: bodyText, key: newKey() };
    return last.key;
  };
}

/** A field's error of the server: its `field` may be a path (`answers.email`). */
const fieldOf = (path: string) => path.replace(/^answers\./, "");

/** Reads the server's answer to a submission. */
export async function readOutcome(response: Response): Promise<SendOutcome> {
  const { status } = response;
  if (status === 200 || status === 201) return { kind: "sent" };
  const body = (await response.json().catch(() => null)) as {
    message?: unknown;
    details?: Array<{ field?: unknown; message?: unknown }>;
  } | null;
  if (status === 400) {
    const errors = (Array.isArray(body?.details) ? body.details : [])
      .filter((d) => typeof d?.field === "string" && typeof d.message === "string")
      .map((d) => ({ field: fieldOf(d.field as string), message: d.message as string }));
    const message =
      typeof body?.message === "string" && !errors.length ? body.message : SEND_MESSAGES.invalid;
    return { kind: "invalid", errors, message };
  }
  if (status === 429) return { kind: "failed", message: SEND_MESSAGES.rateLimited, retry: true };
  if (status === 409) return { kind: "failed", message: SEND_MESSAGES.busy, retry: true };
  if (status === 410) return { kind: "failed", message: CLOSED_MESSAGE, retry: false };
  if (status === 404) return { kind: "failed", message: SEND_MESSAGES.gone, retry: false };
  if (status === 413) return { kind: "failed", message: SEND_MESSAGES.tooLarge, retry: false };
  return { kind: "failed", message: SEND_MESSAGES.server, retry: true };
}

/**
 * Posts the answers; never throws (a lost connection is an outcome too).
 *
 * @example
 * await sendSubmission("/forms/f/contact/submissions", { answers, tracking }, key); // { kind: "sent" }
 */
export async function sendSubmission(
  url: string,
  bodyText: string,
  key: string,
  fetchImpl: typeof fetch = fetch,
): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: "POST",
      // Public and cookie-free: the embed posts from other sites without credentials.
      credentials: "omit",
      headers: { "content-type": "application/json", accept: "application/json", "idempotency-key": key },
      body: bodyText,
    });
  } catch {
    return { kind: "failed", message: SEND_MESSAGES.network, retry: true };
  }
  return readOutcome(response);
}
