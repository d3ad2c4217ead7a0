/**
 * Every inbound event takes effect once (issue 26): a store callback (by its `hash`), an SMS
 * provider callback (by the provider's message id), an automation webhook call (by its
 * `Idempotency-Key`, when the caller sends one) and an inbound mail (by its Message-ID) are
 * recorded for a week, not only while the job they start runs: providers retry for hours, and
 * a replay must answer as the first did and do nothing.
 *
 * The record is the HTTP idempotency store's (server/http/idempotency-store.ts, table
 * `idempotency_keys`) under the scope `inbound`, the route being the event's source: one claim
 * statement decides which delivery does the work, across instances; the others wait for its
 * answer and answer it again. Expired rows of both kinds go by one recurring sweep
 * (registerIdempotency).
 *
 * Checks that refuse a delivery (a bad signature, an unknown address) come before `once`, so a
 * forger cannot spend a sender's key; a handler that throws lets its key go, so the provider's
 * retry runs it again.
 */
import { createHash } from "node:crypto";
import type { FastifyReply } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../db";
import { REPLAYED_HEADER } from "./idempotency";
import { type Claim, createIdempotencyStore, type StoredAnswer } from "./idempotency-store";

/** How long an inbound event is remembered: providers retry for hours, some for days. */
export const INBOUND_TTL_SECONDS = 7 * 24 * 60 * 60;
/** How long a replay waits for the first delivery's answer before saying "still working". */
export const INBOUND_WAIT_MS = 10_000;
const POLL_MS = 50;
const JSON_TYPE = "application/json; charset=utf-8";
const SCOPE = "inbound";
/** Every inbound key "hashes" alike: a replay is the same event whatever its body says now. */
const SAME = "inbound";
/** The table's key column holds 255 characters; a longer id (a Message-ID) is kept as its hash. */
const MAX_KEY = 255;

/** Where an inbound event came from; with the key, it names one event. */
export type InboundSource =
  | `store:${string}`
  | "sms:inbound"
  | "sms:status"
  | `automation:${string}`
  | "mail";

/** What a delivery was answered: kept small, and answered again on a replay. */
export interface InboundAnswer {
  status: number;
  /** Content type of `body` (default JSON). */
  type?: string;
  body: string | null;
}

export interface InboundOutcome {
  answer: InboundAnswer;
  /** True when this delivery did nothing: the event was handled (or is being) by another. */
  replayed: boolean;
}

/** The answer given to a replay that arrives while the first delivery still runs past the wait. */
const STILL_RUNNING: InboundAnswer = {
  status: 409,
  type: JSON_TYPE,
  body: JSON.stringify({
    statusCode: 409,
    error: "Conflict",
    message: "This event is still being processed; it will take effect once",
  }),
};

const keyOf = (key: string) =>
  key.length <= MAX_KEY ? key : `sha256:${createHash("sha256").update(key).digest("hex")}`;

const stored = (answer: InboundAnswer): StoredAnswer => ({
  status: answer.status,
  headers: answer.type ? { "content-type": answer.type } : {},
  body: answer.body,
});

const answerOf = (row: StoredAnswer): InboundAnswer => ({
  status: row.status,
  type: row.headers["content-type"],
  body: row.body,
});

/**
 * The record of inbound events on one database.
 *
 * @example
 * const { answer, replayed } = await createInboundEvents(db).once("mail", messageId, async () => {
 *   await storeTheReply();
 *   return { status: 250, body: null };
 * });
 */
export function createInboundEvents(db: Kysely<Database>, options: { waitMs?: number } = {}) {
  const store = createIdempotencyStore(db, INBOUND_TTL_SECONDS);
  const waitMs = options.waitMs ?? INBOUND_WAIT_MS;

  return {
    /**
     * Runs `handle` for this event unless it was handled before (then its first answer comes
     * back, `replayed`). Concurrent deliveries: one runs, the others wait for its answer (at
     * most `waitMs`, then a 409 "still being processed"). A throw forgets the key and rethrows.
     */
    async once(
      source: InboundSource,
      key: string,
      handle: () => Promise<InboundAnswer>,
    ): Promise<InboundOutcome> {
      const ref = { scope: SCOPE, route: source, key: keyOf(key) };
      const deadline = Date.now() + waitMs;
      for (;;) {
        const outcome = await store.claim(ref, SAME);
        if (outcome.kind === "done") return { answer: answerOf(outcome.answer), replayed: true };
        if (outcome.kind === "claimed") return { answer: await run(outcome.claim, handle), replayed: false };
        // Running elsewhere (mismatch cannot happen: every key hashes alike).
        if (Date.now() >= deadline) return { answer: STILL_RUNNING, replayed: true };
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },

    /** Whether this event was recorded (handled, or being handled) and not yet swept. */
    async seen(source: InboundSource, key: string): Promise<boolean> {
      const row = await db
        .selectFrom("idempotency_keys")
        .select("key")
        .where("scope", "=", SCOPE)
        .where("route", "=", source)
        .where("key", "=", keyOf(key))
        .executeTakeFirst();
      return row !== undefined;
    },
  };

  async function run(claim: Claim, handle: () => Promise<InboundAnswer>): Promise<InboundAnswer> {
    let answer: InboundAnswer;
    try {
      answer = await handle();
    } catch (error) {
      await store.release(claim).catch(() => undefined);
      throw error;
    }
    await store.complete(claim, stored(answer));
    return answer;
  }
}

export type InboundEvents = ReturnType<typeof createInboundEvents>;

/**
 * Sends an inbound outcome as the answer (a replay marked `Idempotent-Replayed: true`, as a
 * replayed create is).
 */
export function sendInbound(reply: FastifyReply, { answer, replayed }: InboundOutcome) {
  reply.code(answer.status).type(answer.type ?? JSON_TYPE);
  if (replayed) reply.header(REPLAYED_HEADER, "true");
  return reply.send(answer.body ?? undefined);
}

/** A JSON answer to keep. */
export const jsonAnswer = (status: number, body: unknown): InboundAnswer => ({
  status,
  type: JSON_TYPE,
  body: JSON.stringify(body),
});
