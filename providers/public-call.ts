/**
 * POSTs of the screens before sign-in (sign-in, forgot and reset password) with the browser's
 * own fetch. They need none of the session rules of `http` (no token, no refresh, no resend),
 * and leaving axios out keeps it off the sign-in screen's first load.
 */
import { SOMETHING_WENT_WRONG } from "../src/lib/errors";
import { SERVICE_BASES } from "./service-bases";

/**
 * A refused or unanswered call. Shaped like the errors the screens read (`response.status`,
 * `response.data`), so `getErrorMessage` and `getFieldErrors` give the server's words.
 */
export class PublicCallError extends Error {
  readonly response?: { status: number; data: unknown };

  constructor(message: string, response?: { status: number; data: unknown }, options?: ErrorOptions) {
    super(message, options);
    this.name = "PublicCallError";
    this.response = response;
  }
}

const messageOf = (data: unknown): string | undefined => {
  const message = (data as { message?: unknown } | null)?.message;
  return typeof message === "string" && message.trim() !== "" ? message : undefined;
};

/**
 * POSTs `body` as JSON to `{api}{path}` and resolves with the parsed answer; rejects with a
 * {@link PublicCallError} for an answer other than 2xx (its message is the server's) or none.
 *
 * @example
 * const { message } = await postPublic<{ message: string }>("/api/auth/forgot-password", { email });
 */
export async function postPublic<T>(
  path: string,
  body: unknown,
  send: typeof fetch = (...args) => fetch(...args),
): Promise<T> {
  let response: Response;
  try {
    response = await send(`${SERVICE_BASES.api}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (cause) {
    throw new PublicCallError(SOMETHING_WENT_WRONG, undefined, { cause });
  }
  const text = await response.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (a proxy's error page): kept as text, and the message stays generic.
  }
  if (!response.ok) {
    throw new PublicCallError(messageOf(data) ?? SOMETHING_WENT_WRONG, { status: response.status, data });
  }
  return data as T;
}
