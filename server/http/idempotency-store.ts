/**
 * The SQL of idempotency keys (table `idempotency_keys`, migration 0008). Times come from the
 * database clock, so every instance agrees on leases and expiry.
 */
import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db";

/** How long a key is remembered: the issue asks for at least 24 hours. */
export const KEY_TTL_SECONDS = 24 * 60 * 60;
/**
 * How long a `running` claim holds before it is presumed dead (its process crashed): after
 * this a retry with the same key and body may run. Creates answer in well under a second.
 */
export const LEASE_SECONDS = 60;

export interface KeyRef {
  scope: string;
  route: string;
  key: string;
}

/** A claim this request owns; `claimId` fences a late finisher whose lease was taken over. */
export interface Claim extends KeyRef {
  claimId: string;
}

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export type ClaimOutcome =
  | { kind: "claimed"; claim: Claim }
  | { kind: "mismatch" }
  | { kind: "running" }
  | { kind: "done"; answer: StoredAnswer };

/**
 * The store of one kind of key: `ttlSeconds` is how long its answers are kept (create routes:
 * a day; inbound events, server/http/inbound-events.ts: a week).
 */
export function createIdempotencyStore(db: Kysely<Database>, ttlSeconds = KEY_TTL_SECONDS) {
  /**
   * Claims a key for a request whose body hashes to `hash`, or says why not. One statement
   * decides, so two instances racing on one key cannot both win. An expired row, or a
   * running row whose lease ran out with the same body, is taken over.
   */
  async function claim(ref: KeyRef, hash: string, attempt = 1): Promise<ClaimOutcome> {
    const claimId = randomUUID();
    const taken = await sql<{ claim_id: string }>`
        insert into idempotency_keys
          (scope, route, key, request_hash, state, claim_id, locked_until, created_at, expires_at)
        values (${ref.scope}, ${ref.route}, ${ref.key}, ${hash}, 'running', ${claimId},
          now() + make_interval(secs => ${LEASE_SECONDS}), now(),
          now() + make_interval(secs => ${ttlSeconds}))
        on conflict (scope, route, key) do update set
          request_hash = excluded.request_hash, state = 'running', claim_id = excluded.claim_id,
          locked_until = excluded.locked_until, status = null, headers = null, body = null,
          created_at = excluded.created_at, expires_at = excluded.expires_at
        where idempotency_keys.expires_at <= now()
          or (idempotency_keys.state = 'running' and idempotency_keys.locked_until <= now()
            and idempotency_keys.request_hash = excluded.request_hash)
        returning claim_id`.execute(db);
    if (taken.rows[0]?.claim_id === claimId) return { kind: "claimed", claim: { ...ref, claimId } };

    const row = await db
      .selectFrom("idempotency_keys")
      .select(["request_hash", "state", "status", "headers", "body"])
      .where("scope", "=", ref.scope)
      .where("route", "=", ref.route)
      .where("key", "=", ref.key)
      .executeTakeFirst();
    // Deleted (released after a 5xx, or swept) between the two statements: try again.
    if (!row) return attempt < 3 ? claim(ref, hash, attempt + 1) : { kind: "running" };
    if (row.request_hash !== hash) return { kind: "mismatch" };
    if (row.state === "running" || row.status === null) return { kind: "running" };
    return { kind: "done", answer: { status: row.status, headers: row.headers ?? {}, body: row.body } };
  }

  return {
    claim,

    /** Stores the final answer of a claim (only while this request still owns it). */
    async complete(claim: Claim, answer: StoredAnswer): Promise<void> {
      await db
        .updateTable("idempotency_keys")
        .set({
          state: "done",
          locked_until: null,
          status: answer.status,
          headers: JSON.stringify(answer.headers),
          body: answer.body,
          expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})`,
        })
        .where("scope", "=", claim.scope)
        .where("route", "=", claim.route)
        .where("key", "=", claim.key)
        .where("claim_id", "=", claim.claimId)
        .execute();
    },

    /** Forgets a claim (a 5xx or a "try later" answer), so a retry runs the request again. */
    async release(claim: Claim): Promise<void> {
      await db
        .deleteFrom("idempotency_keys")
        .where("scope", "=", claim.scope)
        .where("route", "=", claim.route)
        .where("key", "=", claim.key)
        .where("claim_id", "=", claim.claimId)
        .execute();
    },

    /** Deletes up to `limit` expired keys; answers how many went. */
    async sweep(limit = 1000): Promise<number> {
      const result = await sql`
        delete from idempotency_keys where ctid in (
          select ctid from idempotency_keys where expires_at <= now() limit ${limit})`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
