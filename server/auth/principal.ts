/**
 * Who is calling: resolved from the bearer token on every request that needs it.
 * Status rules (ARCHITECTURE.md §4): expired genuine token 417; missing, invalid or
 * revoked 401; disabled user or logged-out device 406.
 */
import { sql } from "kysely";
import { ACCOUNT_DISABLED_MESSAGE, DEVICE_SIGNED_OUT_MESSAGE } from "../../schemas/auth";
import type { AppContext } from "../context";
import { HttpError, unauthorized } from "../http/errors";
import type { CachedSession } from "./principal-cache";
import {
  activityIsStale,
  activityWriteInterval,
  cacheDeadline,
  SESSION_END_MESSAGES,
  sessionLimitReached,
} from "./session-lifetime";

export interface Principal {
  userId: string;
  sessionId: string;
  deviceId: string;
  role: number;
  isAdmin: boolean;
  modules: ReadonlySet<number>;
}

export const ROLE_ADMIN = 2;

/**
 * `sessions.revoked_reason` of a session signed out from another session (My devices, or an
 * admin): its access and refresh tokens answer 406 DEVICE_SIGNED_OUT_MESSAGE.
 */
export const SIGNED_OUT_ELSEWHERE = "signed_out";

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match ? match[1] : null;
}

/**
 * The principal of a bearer token when its session was checked a moment ago (the common case),
 * without a promise; undefined when `resolvePrincipal` must decide (no token, a bad or expired
 * one, a session not in the cache).
 */
export function cachedPrincipal(ctx: AppContext, token: string | null): Principal | undefined {
  if (!token) return undefined;
  const verdict = ctx.tokens.verifyAccess(token);
  if (!verdict.ok) return undefined;
  const { sub, sid } = verdict.claims;
  const cached = ctx.principals.get(sid);
  return cached && cached.userId === sub ? principalOf(sid, cached) : undefined;
}

/**
 * Resolves the principal of a bearer token.
 * @param allowExpired accept a genuine but expired token (used by logout, so a device
 *   can always be signed out).
 */
export async function resolvePrincipal(
  ctx: AppContext,
  token: string | null,
  allowExpired = false,
): Promise<Principal> {
  if (!token) throw unauthorized();
  const verdict = ctx.tokens.verifyAccess(token);
  if (!verdict.ok && verdict.reason === "invalid") throw unauthorized("Invalid token");
  if (!verdict.ok && !allowExpired) throw new HttpError(417, "Access token expired");
  const { sub, sid } = verdict.claims;

  const cached = ctx.principals.get(sid);
  if (cached && cached.userId === sub) return principalOf(sid, cached);

  const generation = ctx.principals.generation(sub);
  const row = await ctx.db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .innerJoin("devices as d", "d.id", "s.device_pk")
    .select([
      "s.revoked_at",
      "s.revoked_reason",
      "s.expires_at",
      "s.created_at",
      "s.last_active_at",
      "u.active",
      "u.role",
      "d.device_id",
      sql<number[]>`array(select module_id from user_modules um where um.user_id = u.id)`.as("modules"),
    ])
    .where("s.id", "=", sid)
    .where("u.id", "=", sub)
    .executeTakeFirst();

  if (!row) throw unauthorized("Session not found");
  if (!row.active) throw new HttpError(406, ACCOUNT_DISABLED_MESSAGE);
  if (row.revoked_at) {
    if (row.revoked_reason === "logout" || row.revoked_reason === SIGNED_OUT_ELSEWHERE)
      throw new HttpError(406, DEVICE_SIGNED_OUT_MESSAGE);
    throw unauthorized("Session revoked");
  }
  const now = Date.now();
  // Before the sliding expiry, which is capped at the absolute deadline and would answer first.
  const times = { createdAt: row.created_at, lastActiveAt: row.last_active_at };
  const ended = sessionLimitReached(times, ctx.config, now);
  if (ended) {
    await endSession(ctx, sid, sub, ended);
    throw unauthorized(SESSION_END_MESSAGES[ended]);
  }
  if (row.expires_at.getTime() <= now) throw unauthorized("Session expired");
  // Cache misses are the cheap moment to record activity: at most one write a minute.
  if (activityIsStale(row.last_active_at, ctx.config, now)) {
    times.lastActiveAt = new Date(now);
    await ctx.db
      .updateTable("sessions")
      .set({ last_active_at: times.lastActiveAt })
      .where("id", "=", sid)
      // Another instance may have written it meanwhile: then this one skips.
      .where("last_active_at", "<=", new Date(now - activityWriteInterval(ctx.config)))
      .execute();
  }
  const session: CachedSession = {
    userId: sub,
    deviceId: row.device_id,
    role: row.role,
    modules: new Set(row.modules.map(Number)),
    // A cached entry must not outlive the session's own limits.
    expiresAt: Math.min(row.expires_at.getTime(), cacheDeadline(times, ctx.config)),
  };
  ctx.principals.set(sid, session, generation);
  return principalOf(sid, session);
}

function principalOf(sessionId: string, s: CachedSession): Principal {
  return {
    userId: s.userId,
    sessionId,
    deviceId: s.deviceId,
    role: s.role,
    isAdmin: s.role === ROLE_ADMIN,
    modules: s.modules,
  };
}

/** Revokes a session that passed its absolute lifetime or idle timeout. */
async function endSession(ctx: AppContext, sessionId: string, userId: string, reason: string) {
  await ctx.db
    .updateTable("sessions")
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where("id", "=", sessionId)
    .where("revoked_at", "is", null)
    .execute();
  await sessionsChanged(ctx, userId);
}

const CHANNEL = "atelier_sessions";

/**
 * Forgets a user's cached sessions here and on every other instance. Call it, and await
 * it, after any write that ends or narrows a user's sessions and before answering.
 */
export async function sessionsChanged(ctx: AppContext, userId: string): Promise<void> {
  await ctx.broadcast.publish(CHANNEL, userId);
}

/**
 * Wires the cache to the broadcast: forget on message, stop caching while deaf to others.
 * When the listener is back (after a database restart, a failover, a dropped connection),
 * everything is forgotten once more: a lookup that read the database before LISTEN was
 * re-subscribed may have missed a revoke published in between.
 */
export function watchSessionChanges(ctx: AppContext): void {
  ctx.broadcast.subscribe(CHANNEL, (userId) => ctx.principals.forgetUser(userId));
  let starting = true;
  ctx.broadcast.onStatus((connected) => {
    ctx.principals.setEnabled(false);
    if (!connected) {
      if (!starting) ctx.log.warn("session change notifications lost: session caching is off");
      return;
    }
    ctx.principals.setEnabled(true);
    // The first connection, at start-up, is no news.
    if (!starting) ctx.log.info("session change notifications flow again: session caching is back on");
    starting = false;
  });
}
