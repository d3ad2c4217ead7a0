/**
 * Reading multipart bodies without turning a broken upload into a 500. Busboy reports a
 * truncated body, a missing or wrong boundary or a malformed part header as a plain Error
 * (no status): all of them are the client's body, so they become a 400. Only errors raised
 * while *reading the request* are mapped; what the caller does with each part is not.
 */
import type { Multipart } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { HttpError } from "./errors";

export const MALFORMED_MULTIPART = "The upload is incomplete or malformed: please send the file again";

/** The error to answer for a failure of the multipart parser (ours and limits keep their status). */
export function multipartError(error: unknown): Error {
  if (error instanceof HttpError) return error;
  const status = (error as { statusCode?: number })?.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) return error as Error;
  return new HttpError(400, MALFORMED_MULTIPART, [{ field: "file", message: "is incomplete or malformed" }]);
}

/** `request.parts()`, with parser failures answered as 400 (see multipartError). */
export async function* multipartParts(request: FastifyRequest): AsyncGenerator<Multipart> {
  const iterator = request.parts()[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw multipartError(error);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.(undefined).catch(() => {});
  }
}
