/**
 * Idempotent creates (issue 10): a route with `config: { idempotent: true }` honours an
 * `Idempotency-Key` header. The key is scoped to the signed-in user (the client IP on public
 * routes) and the route pattern. The first request with a key runs and its final answer
 * (2xx or 4xx: status, body, content-type and location) is stored; a retry with the same key
 * and the same parsed body gets that answer again, replayed, for 24 hours. The same key with
 * another body → 422; a retry while the first still runs → 409 (with `Retry-After`). 5xx and
 * "try again later" answers are not stored, so a retry runs again. Without the header nothing
 * changes. State lives in the database, so it holds across instances and restarts.
 *
 * One hook pair does it all: preValidation (the body is parsed, not yet validated, so a 400
 * validation answer is stored and replayed too) claims the key; onSend stores the answer
 * before it leaves, so a client that retries the moment it hears back finds it.
 */
import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { badRequest, conflict, HttpError } from "./errors";
import { type Claim, createIdempotencyStore, type IdempotencyStore } from "./idempotency-store";

export const IDEMPOTENCY_HEADER = "idempotency-key";
/** Set on a replayed answer, so a client (and a person reading logs) can tell. */
export const REPLAYED_HEADER = "idempotent-replayed";
/** 1–255 printable ASCII characters (space to tilde). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
/** Answer headers worth replaying; the rest (dates, lengths, cookies) belong to each answer. */
const REPLAYED_HEADERS = ["content-type", "location"] as const;
/**
 * 4xx answers that say "not now" rather than "no": the session or grants may change, a rate
 * limit passes. Storing them would replay a refusal that no longer holds.
 */
const TRY_LATER = new Set([401, 403, 406, 408, 417, 425, 429]);
/** The recurring job that deletes expired keys, and how often it runs. */
export const SWEEP_JOB = "idempotency.sweep";
const SWEEP_EVERY_MS = 10 * 60 * 1000;

declare module "fastify" {
  interface FastifyContextConfig {
    /** Honour the `Idempotency-Key` header (JSON create routes). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
  }
}

/** The OpenAPI description of the header, added to every idempotent route's schema. */
const headerSchema = {
  type: "string",
  minLength: 1,
  maxLength: 255,
  pattern: "^[\\x20-\\x7e]+$",
  description:
    "Optional. A random key per logical create (e.g. a UUID), reused on every retry of it: a " +
    "retry with the same key and body answers the first answer again instead of creating twice.",
} as const;

/**
 * Canonical JSON: object keys sorted at every level, so `{a,b}` and `{b,a}` are one body.
 *
 * @example
 * canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }); // '{"a":[{"c":3,"d":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** sha256 of a parsed body's canonical JSON (no body hashes as `null`). */
export function bodyHash(body: unknown): string {
  return createHash("sha256")
    .update(canonicalJson(body ?? null))
    .digest("hex");
}

/** The key of a request, `null` without one; a malformed key is a 400. */
export function idempotencyKeyOf(request: Pick<FastifyRequest, "headers">): string | null {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return null;
  if (typeof value === "string" && KEY_PATTERN.test(value)) return value;
  throw badRequest("Invalid Idempotency-Key header", [
    { field: "Idempotency-Key", message: "must be 1 to 255 printable ASCII characters" },
  ]);
}

/** Who the key belongs to: the signed-in user, else (public routes) the client address. */
function scopeOf(request: FastifyRequest): string {
  return request.principal ? `user:${request.principal.userId}` : `ip:${request.ip}`;
}

function replay(
  reply: FastifyReply,
  answer: { status: number; headers: Record<string, string>; body: string | null },
) {
  reply.code(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  reply.header(REPLAYED_HEADER, "true");
  return reply.send(answer.body ?? undefined);
}

/** The answer body as it will be stored (null: none); undefined when it cannot be (a stream). */
function storableBody(payload: unknown): string | null | undefined {
  if (payload === undefined || payload === null) return null;
  if (typeof payload === "string") return payload;
  if (Buffer.isBuffer(payload)) return payload.toString("utf8");
  return undefined;
}

/**
 * Registers the hook pair. Call before any route is registered: an onRoute hook documents
 * the header on every idempotent route.
 */
export function registerIdempotency(app: FastifyInstance, ctx: Pick<AppContext, "db" | "jobs">) {
  const store: IdempotencyStore = createIdempotencyStore(ctx.db);

  app.decorateRequest("idempotencyClaim", null);

  app.addHook("onRoute", (route) => {
    if (!route.config?.idempotent) return;
    // Documentation only: preValidation below has already refused a bad key with its message.
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const headers = (schema.headers ?? { type: "object", properties: {} }) as {
      properties?: Record<string, unknown>;
    };
    route.schema = {
      ...schema,
      headers: { ...headers, properties: { ...headers.properties, [IDEMPOTENCY_HEADER]: headerSchema } },
    };
  });

  /** Claims the request's key, or answers for it (replay, 409, 422). */
  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = idempotencyKeyOf(request);
    if (key === null) return;
    const ref = { scope: scopeOf(request), route: `${request.method} ${request.routeOptions.url}`, key };
    const outcome = await store.claim(ref, bodyHash(request.body));
    switch (outcome.kind) {
      case "claimed":
        request.idempotencyClaim = outcome.claim;
        return;
      case "mismatch":
        throw new HttpError(
          422,
          "This Idempotency-Key was already used with a different request body; use a new key for a new request",
        );
      case "running":
        reply.header("retry-after", "1");
        throw conflict(
          "A request with this Idempotency-Key is still being processed; retry once it has finished",
        );
      case "done":
        return replay(reply, outcome.answer);
    }
  };

  /** Stores the answer of a claimed key (or lets the key go when the answer is not final). */
  const record = async (request: FastifyRequest, reply: FastifyReply, payload: unknown, claim: Claim) => {
    const status = reply.statusCode;
    const body = storableBody(payload);
    const final = status >= 200 && status < 500 && !(status >= 300 && status < 400) && !TRY_LATER.has(status);
    try {
      if (final && body !== undefined) {
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        await store.complete(claim, { status, headers, body });
      } else {
        await store.release(claim);
      }
    } catch (err) {
      // The answer still goes out; the claim's lease lets a retry through later.
      request.log.warn({ err }, "could not record the idempotency key's answer");
    }
  };

  // The hooks below run on every request and nearly every one carries no key: those pass
  // through as callback hooks, without a promise; the rest goes to the async steps.
  app.addHook("preValidation", (request, reply, done) => {
    // The header first: `routeOptions` builds an object on every read.
    if (request.headers[IDEMPOTENCY_HEADER] === undefined || !request.routeOptions.config.idempotent)
      return done();
    claim(request, reply).then(() => done(), done);
  });

  app.addHook("onSend", (request, reply, payload, done) => {
    const claimed = request.idempotencyClaim;
    if (!claimed) return done(null, payload);
    request.idempotencyClaim = null;
    record(request, reply, payload, claimed).then(() => done(null, payload), done);
  });

  // Expired keys, of create routes and of inbound events (inbound-events.ts) alike, go by one
  // recurring job of the queue: one instance at a time sweeps for the whole database, whether
  // or not requests come (an idle instance used to keep its inbound events forever).
  ctx.jobs.recurring<null>(SWEEP_JOB, SWEEP_EVERY_MS, null, async () => {
    let swept = 0;
    for (let batch = await store.sweep(); batch > 0; batch = await store.sweep()) swept += batch;
    if (swept) app.log.info({ swept }, "expired idempotency keys and inbound events deleted");
    return null;
  });
}
