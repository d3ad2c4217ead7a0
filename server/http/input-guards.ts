/**
 * Request-level guards that turn hostile or broken input into a clear 400 before any route
 * sees it (issue 10, "no input makes a 5xx"):
 *
 * - JSON bodies must be valid UTF-8: Node would otherwise replace bad bytes with U+FFFD and
 *   store text the client never sent.
 * - Query strings must percent-decode to valid UTF-8 (`?q=%FF`); the router already refuses
 *   such a path (`/api/products/%C3%28`), and `frameworkErrors` gives that our error shape.
 * - No text may contain NUL (U+0000): PostgreSQL text cannot hold it, so it would fail in
 *   the database as a 500. Parsed bodies, query strings and path parameters are walked, and
 *   JSON nested deeper than MAX_INPUT_DEPTH is refused on the way.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { badRequest, errorBody } from "./errors";

const NUL_MESSAGE = "must not contain NUL characters";
/** Enough to name every bad field of a real form, few enough to keep the answer small. */
const MAX_DETAILS = 20;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * True when a value is a plain data object (not a stream, a buffer or a date). The query
 * string parser builds its objects on a prototype-less prototype, hence the second level.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * How deep JSON input may nest. Real bodies nest a few levels; past this the walks below and
 * the validators would recurse for nothing (a body of 20,000 `[` is 40 kB).
 */
export const MAX_INPUT_DEPTH = 64;

/**
 * Dotted paths (`links.0.target.text`) of every string, or object key, holding a NUL.
 * Walks without recursion; input nested deeper than MAX_INPUT_DEPTH is refused with a 400.
 *
 * @example
 * nulFields({ name: "a\u0000b", tags: ["ok"] }); // ["name"]
 */
export function nulFields(value: unknown, prefix = "", where = "input"): string[] {
  // Nearly every input is clean: answer that without building paths (this runs on every request).
  if (!mayHoldNul(value, 0)) return [];
  const found: string[] = [];
  const stack: Array<{ item: unknown; path: string; depth: number }> = [
    { item: value, path: prefix, depth: 0 },
  ];
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
  while (stack.length && found.length < MAX_DETAILS) {
    const { item, path, depth } = stack.pop() as (typeof stack)[number];
    if (typeof item === "string") {
      if (item.includes("\u0000")) found.push(path || "(body)");
      continue;
    }
    const entries = Array.isArray(item)
      ? item.map((v, i) => [String(i), v] as const)
      : isPlainObject(item)
        ? Object.entries(item)
        : null;
    if (!entries) continue;
    if (depth >= MAX_INPUT_DEPTH) {
      throw badRequest(`Invalid ${where}: it is nested more than ${MAX_INPUT_DEPTH} levels deep`, [
        { field: path || "(body)", message: `must not nest more than ${MAX_INPUT_DEPTH} levels deep` },
      ]);
    }
    // Pushed in reverse, so fields are reported in their order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      if (key.includes("\u0000")) found.push(join(path, key).replaceAll("\u0000", "\\0"));
      else stack.push({ item: child, path: join(path, key), depth: depth + 1 });
    }
  }
  return found;
}

/**
 * False when no string or key of `item` holds a NUL and no list or object sits MAX_INPUT_DEPTH
 * deep: `nulFields` would then find nothing. Recursion is bounded by that depth.
 */
function mayHoldNul(item: unknown, depth: number): boolean {
  if (typeof item === "string") return item.includes("\u0000");
  if (item === null || typeof item !== "object") return false;
  if (Array.isArray(item)) {
    if (depth >= MAX_INPUT_DEPTH) return true;
    for (let i = 0; i < item.length; i++) if (mayHoldNul(item[i], depth + 1)) return true;
    return false;
  }
  if (!isPlainObject(item)) return false;
  if (depth >= MAX_INPUT_DEPTH) return true;
  const keys = Object.keys(item);
  for (const key of keys) {
    if (key.includes("\u0000") || mayHoldNul(item[key], depth + 1)) return true;
  }
  return false;
}

/** Throws a 400 naming each field of `value` that holds a NUL character (or nests too deep). */
export function refuseNul(value: unknown, where: string, prefix = ""): void {
  const fields = nulFields(value, prefix, where);
  if (!fields.length) return;
  throw badRequest(
    `Invalid ${where}: text must not contain NUL characters`,
    fields.map((field) => ({ field, message: NUL_MESSAGE })),
  );
}

/**
 * The names of query string parameters whose percent-encoding does not decode to UTF-8,
 * `(query)` for a name that is itself undecodable.
 */
export function badlyEncodedQuery(url: string): string[] {
  const at = url.indexOf("?");
  if (at < 0) return [];
  // Escapes never span a literal `&` or `=`: when the whole query decodes, every part does.
  try {
    decodeURIComponent(url.slice(at + 1));
    return [];
  } catch {
    // some part does not: name each below
  }
  const bad: string[] = [];
  for (const pair of url.slice(at + 1).split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const rawName = (eq < 0 ? pair : pair.slice(0, eq)).replaceAll("+", " ");
    const rawValue = eq < 0 ? "" : pair.slice(eq + 1).replaceAll("+", " ");
    let name: string;
    try {
      name = decodeURIComponent(rawName);
    } catch {
      bad.push("(query)");
      continue;
    }
    try {
      decodeURIComponent(rawValue);
    } catch {
      bad.push(name);
    }
  }
  return bad;
}

/** Fastify's JSON parser (prototype-poisoning checks included), fed only valid UTF-8. */
function strictJsonParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser("error", "error");
  return (request: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => {
    let text: string;
    try {
      text = strictUtf8.decode(body);
    } catch {
      return done(
        badRequest("The body is not valid UTF-8 text", [{ field: "(body)", message: "is not valid UTF-8" }]),
      );
    }
    return parseJson(request, text, done);
  };
}

/**
 * Registers the guards on the root instance; call before any route plugin so every scope
 * inherits them.
 */
export function registerInputGuards(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, strictJsonParser(app));

  // Callback hooks, not async ones: they run on every request and never wait.
  app.addHook("onRequest", (request, _reply, done) => {
    const bad = badlyEncodedQuery(request.url);
    if (!bad.length) return done();
    done(
      badRequest(
        "Invalid query: the query string is not valid percent-encoded UTF-8",
        bad.slice(0, MAX_DETAILS).map((field) => ({ field, message: "is not valid UTF-8" })),
      ),
    );
  });

  app.addHook("preValidation", (request, _reply, done) => {
    try {
      refuseNul(request.params, "path");
      refuseNul(request.query, "query");
      refuseNul(request.body, "body");
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
}

/**
 * Fastify's `frameworkErrors`: errors raised before routing (a path that does not decode, a
 * parameter past the router's length) answered in our error shape.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 400;
  const message =
    error.code === "FST_ERR_BAD_URL"
      ? "The address is not valid: a percent-encoded part does not decode to UTF-8"
      : error.code === "FST_ERR_MAX_PARAM_LENGTH"
        ? "The address is too long"
        : status < 500
          ? error.message
          : "Something Went Wrong";
  return reply.status(status).send(errorBody(status, message));
}
