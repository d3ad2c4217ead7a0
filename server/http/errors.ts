/**
 * One error shape for every answer (ARCHITECTURE.md §4):
 * `{ statusCode, error, message, details? }`, details being per-field messages.
 */
import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import {
  type AjvErrorLike,
  asSentence,
  type FieldError,
  fieldErrors,
  invalidInputMessage,
} from "../../schemas/error-messages";
import {
  DATABASE_RETRY_AFTER_S,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from "../db/unavailable";

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: FieldError[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: FieldError[]) => new HttpError(400, message, details);
export const unauthorized = (message = "Authentication required") => new HttpError(401, message);
export const forbidden = (message = "You do not have access to this resource") => new HttpError(403, message);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const conflict = (message: string, details?: FieldError[]) => new HttpError(409, message, details);
export const tooManyRequests = (message = "Too many attempts, please try again later") =>
  new HttpError(429, message);

export function errorBody(statusCode: number, message: string, details?: FieldError[]) {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? "Error",
    message,
    ...(details?.length ? { details: details.map((d) => ({ ...d, message: asSentence(d) })) } : {}),
  };
}

/** Ajv errors in words: one mapping shared with the SPA's forms (schemas/error-messages.ts). */
export { type FieldError, fieldErrors } from "../../schemas/error-messages";

interface PgError {
  code?: string;
  constraint?: string;
}

/**
 * PostgreSQL errors caused by the value a client sent (class 22, data exception), in words.
 * Route schemas and guards refuse such input first; this is the net under them, so that bad
 * input is a 400 and never a 500.
 */
const DATA_EXCEPTIONS: Readonly<Record<string, string>> = {
  "22001": "A value is too long for its field",
  "22003": "A number is out of range",
  "22007": "A date or time is not valid",
  "22008": "A date or time is out of range",
  "22009": "A date or time is not valid",
  "2201W": "The page size is out of range",
  "2201X": "The page is out of range",
  "22021": "Text must be valid UTF-8 without NUL characters",
  "22P02": "A value does not have the right format for its field",
  "22P05": "Text must not contain NUL characters",
};

/**
 * Fastify error handler: validation → 400, ours → as set, database conflicts → 409, database
 * unreachable → 503 with Retry-After, else 500.
 */
export function handleError(error: FastifyError & PgError, request: FastifyRequest, reply: FastifyReply) {
  if (error.validation) {
    const details = fieldErrors(error.validation as AjvErrorLike[]);
    return reply.status(400).send(errorBody(400, invalidInputMessage(details), details));
  }
  if (error instanceof HttpError) {
    return reply.status(error.statusCode).send(errorBody(error.statusCode, error.message, error.details));
  }
  if (error.code === "23505") {
    return reply.status(409).send(errorBody(409, "A record with this value already exists"));
  }
  if (error.code === "23503") {
    return reply.status(400).send(errorBody(400, "A referenced record does not exist"));
  }
  const inputMessage =
    error.code && Object.hasOwn(DATA_EXCEPTIONS, error.code) ? DATA_EXCEPTIONS[error.code] : undefined;
  if (inputMessage) {
    // Validation should have caught it; the log says which input slipped past it.
    request.log.warn({ err: error }, "input refused by the database");
    return reply.status(400).send(errorBody(400, inputMessage));
  }
  if (isDatabaseUnavailable(error)) {
    // An outage, not a bug: one line per request, no stack, and a hint to retry.
    request.log.warn({ code: error.code, reason: error.message }, "database unavailable");
    return reply
      .status(503)
      .header("retry-after", String(DATABASE_RETRY_AFTER_S))
      .send(errorBody(503, DATABASE_UNAVAILABLE_MESSAGE));
  }
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) request.log.error({ err: error }, "request failed");
  const message = status === 500 ? "Something Went Wrong" : error.message;
  return reply.status(status).send(errorBody(status, message));
}
