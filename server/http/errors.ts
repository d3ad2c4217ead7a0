/**
 * One error shape for every answer (ARCHITECTURE.md §4):
 * `{ statusCode, error, message, details? }`, details being per-field messages.
 */
import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";

export interface FieldError {
  field: string;
  message: string;
}

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

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const FRIENDLY: Record<string, (e: AjvError) => string> = {
  required: () => "is required",
  additionalProperties: () => "is not allowed",
  format: (e) =>
    e.params.format === "email" ? "must be a valid email address" : `must be a valid ${e.params.format}`,
  minLength: (e) =>
    e.params.limit === 1 ? "must not be empty" : `must be at least ${e.params.limit} characters`,
  maxLength: (e) => `must be at most ${e.params.limit} characters`,
  enum: (e) => `must be one of ${(e.params.allowedValues as unknown[]).join(", ")}`,
  type: (e) => `must be ${e.params.type === "integer" ? "a whole number" : `a ${e.params.type}`}`,
  uniqueItems: () => "must not repeat values",
};

/** Turns Ajv errors into `[{ field, message }]`, the field being the property path (`deviceInfo.deviceId`). */
export function fieldErrors(errors: readonly AjvError[]): FieldError[] {
  return errors.map((e) => {
    const base = e.instancePath.replace(/^\//, "").replace(/\//g, ".");
    const leaf =
      e.keyword === "required"
        ? String(e.params.missingProperty)
        : e.keyword === "additionalProperties"
          ? String(e.params.additionalProperty)
          : "";
    const field = [base, leaf].filter(Boolean).join(".") || "(body)";
    const message = FRIENDLY[e.keyword]?.(e) ?? e.message ?? "is invalid";
    return { field, message };
  });
}

interface PgError {
  code?: string;
  constraint?: string;
}

/** Fastify error handler: validation → 400, ours → as set, database conflicts → 409, else 500. */
export function handleError(error: FastifyError & PgError, request: FastifyRequest, reply: FastifyReply) {
  if (error.validation) {
    const details = fieldErrors(error.validation as AjvError[]);
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
