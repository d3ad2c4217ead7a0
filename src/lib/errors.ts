/**
 * Turning a failure into words for a toast or a form (spec §8: "gives the message if
 * present, otherwise 'Something Went Wrong'").
 */

export const SOMETHING_WENT_WRONG = "Something Went Wrong";

/** A field error as the API sends it in `details` of a 400 answer. */
export interface FieldError {
  field: string;
  message: string;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/**
 * The HTTP status of a failure: a raw axios error's `response.status` or a Refine HttpError's
 * `statusCode`; undefined when there was no answer.
 *
 * @example
 * statusOf({ response: { status: 409 } }); // 409
 * statusOf(new Error("Network Error"));    // undefined
 */
export function statusOf(error: unknown): number | undefined {
  const e = error as { statusCode?: unknown; response?: { status?: unknown } } | null;
  const status = e?.response?.status ?? e?.statusCode;
  return typeof status === "number" ? status : undefined;
}

const nonEmptyString = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

/** The parsed body of an axios error's answer, if the error came with one. */
function responseBody(error: unknown): unknown {
  if (!isRecord(error) || !isRecord(error.response)) return undefined;
  return error.response.data;
}

/**
 * The message to show for a failure: the API's `message` when the server answered with
 * one; otherwise the error's own message, unless it is axios's transport wording
 * ("Network Error", "Request failed with status code 500"), which means nothing to a user;
 * otherwise 'Something Went Wrong'.
 *
 * @example
 * getErrorMessage(axiosErrorWith({ message: "Email already taken" })); // "Email already taken"
 * getErrorMessage(new Error("Unable to refresh token"));               // "Unable to refresh token"
 * getErrorMessage(undefined);                                         // "Something Went Wrong"
 */
export function getErrorMessage(error: unknown): string {
  const body = responseBody(error);
  if (isRecord(body)) {
    const message = nonEmptyString(body.message);
    if (message) return message;
  }
  if (isRecord(error) && error.isAxiosError !== true) {
    const message = nonEmptyString(error.message);
    if (message) return message;
  }
  return SOMETHING_WENT_WRONG;
}

/**
 * The per-field errors of a 400 answer (`response.data.details`), for `form.setFields`.
 * Anything malformed is skipped, so the result is always safe to map over.
 *
 * @example
 * getFieldErrors(error); // [{ field: "email", message: "must be an email" }]
 */
export function getFieldErrors(error: unknown): FieldError[] {
  const body = responseBody(error);
  if (!isRecord(body) || !Array.isArray(body.details)) return [];
  return body.details.flatMap((detail: unknown): FieldError[] => {
    if (!isRecord(detail) || typeof detail.field !== "string" || typeof detail.message !== "string")
      return [];
    return [{ field: detail.field, message: detail.message }];
  });
}
