/**
 * One error shape for every answer (ARCHITECTURE.md §4):
 * `{ statusCode, error, message, details? }`, details being per-field messages.
 */
import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { type AjvErrorLike, type FieldError, fieldErrors } from "../../schemas/error-messages";

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
    ...(details?.length ? { details } : {}),
  };
}

/** Ajv errors in words: one mapping shared with the SPA's forms (schemas/error-messages.ts). */
export { type FieldError, fieldErrors } from "../../schemas/error-messages";

interface PgError {
  code?: string;
  constraint?: string;
}

/** Fastify error handler: validation → 400, ours → as set, database conflicts → 409, else 500. */
export function handleError(error: FastifyError & PgError, request: FastifyRequest, reply: FastifyReply) {
  if (error.validation) {
    const details = fieldErrors(error.validation as AjvErrorLike[]);
    const where =
      error.validationContext === "querystring" ? "query" : (error.validationContext ?? "request");
    return reply
      .status(400)
      .send(errorBody(400, `Invalid ${where}: please correct the highlighted fields`, details));
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
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) request.log.error({ err: error }, "request failed");
  const message = status === 500 ? "Something Went Wrong" : error.message;
  return reply.status(status).send(errorBody(status, message));
}
