/**
 * Secrets that travel in URLs are kept out of the request log. A reset link
 * (`/manage/resetpassword/{id}`, or the older `/manage/resetpassword/{length}/{id}`) signs
 * whoever holds it in as its user until it is used or expires, so a log line holding it would
 * make everybody who reads the logs able to take over the account.
 */
import type { FastifyRequest, FastifyServerOptions } from "fastify";

/** Path segments followed by a secret: everything after them is replaced. */
export const SECRET_PATH_SEGMENTS = ["resetpassword"] as const;

export const REDACTED = "[redacted]";

const SECRET_PATH = new RegExp(`(/(?:${SECRET_PATH_SEGMENTS.join("|")}))(?:/|%2f).*$`, "i");

/**
 * A URL with any secret path segment's tail redacted (query string included).
 *
 * @example
 * redactUrl("/manage/resetpassword/12/abc") // "/manage/resetpassword/[redacted]"
 */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH, `$1/${REDACTED}`);
}

/** Fastify's default request serializer, with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: [request.headers?.["accept-version"]].flat()[0],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

type LoggerOption = FastifyServerOptions["logger"];

/**
 * The app's logger option with the redacting request serializer installed, whatever the
 * caller asked for (a level, a destination stream, `true`); `false` stays off.
 */
export function withRedaction(logger: LoggerOption): LoggerOption {
  if (!logger) return logger;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, req: serializeRequest } };
}
