/**
 * Sessions: one chain of refresh tokens per device. Sign-in opens a chain (closing that
 * device's previous one), refresh rotates it, logout closes it.
 */
import {
  ACCOUNT_DISABLED_MESSAGE,
  DEVICE_SIGNED_OUT_MESSAGE,
  type DeviceInfo,
  type TokenPair,
} from "../../schemas/auth";
import { detectBrowser, detectDevice } from "../../src/lib/device";
import type { AppContext } from "../context";
import type { SessionsTable } from "../db/types";
import { HttpError, unauthorized } from "../http/errors";
import { recordSecurityEvent } from "../security/events";
import { SIGNED_OUT_ELSEWHERE, sessionsChanged } from "./principal";
import { refreshExpiry, SESSION_END_MESSAGES, sessionLimitReached } from "./session-lifetime";
import { hashToken, newOpaqueToken } from "./tokens";

/** A refresh token presented again this soon after its rotation gets the same new pair. */
export const REFRESH_GRACE_MS = 20_000;

export interface ClientMeta {
  ip: string | null;
  userAgent: string | null;
}

function pair(
  ctx: AppContext,
  userId: string,
  sessionId: string,
  refreshToken: string,
  refreshExpiry: Date,
): TokenPair {
  const access = ctx.tokens.signAccess({ sub: userId, sid: sessionId });
  return {
    accessToken: access.token,
    accessTokenExpiry: access.expiresAt,
    accessTokenDuration: ctx.config.accessTokenTtl,
    refreshToken,
    refreshTokenExpiry: refreshExpiry.getTime(),
    refreshTokenDuration: Math.max(0, Math.round((refreshExpiry.getTime() - Date.now()) / 1000)),
  };
}

/**
 * Records the device, closes its previous chain and opens a new one; `secondFactor` says how
 * its sign-in passed the second step (the devices list shows it).
 */
export async function openSession(
  ctx: AppContext,
  userId: string,
  device: DeviceInfo,
  meta: ClientMeta,
  secondFactor: SessionsTable["second_factor"] = null,
): Promise<TokenPair> {
  const ua = meta.userAgent ?? "";
  const refreshToken = newOpaqueToken();
  const now = new Date();
  const expiresAt = refreshExpiry(now, ctx.config, now.getTime());
  const sessionId = await ctx.db.transaction().execute(async (trx) => {
    const { id: devicePk } = await trx
      .insertInto("devices")
      .values({
        user_id: userId,
        device_id: device.deviceId,
        device_name: device.deviceName,
        browser: detectBrowser(ua),
        device_kind: detectDevice(ua),
        ip: meta.ip,
        user_agent: meta.userAgent,
        last_seen_at: now,
      })
      .onConflict((oc) =>
        oc.columns(["user_id", "device_id"]).doUpdateSet((eb) => ({
          device_name: eb.ref("excluded.device_name"),
          browser: eb.ref("excluded.browser"),
          device_kind: eb.ref("excluded.device_kind"),
          ip: eb.ref("excluded.ip"),
          user_agent: eb.ref("excluded.user_agent"),
          last_seen_at: now,
        })),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("sessions")
      .set({ revoked_at: now, revoked_reason: "replaced" })
      .where("device_pk", "=", devicePk)
      .where("revoked_at", "is", null)
      .execute();
    const session = await trx
      .insertInto("sessions")
      .values({
        user_id: userId,
        device_pk: devicePk,
        expires_at: expiresAt,
        created_at: now,
        last_active_at: now,
        second_factor: secondFactor,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("refresh_tokens")
      .values({ token_hash: hashToken(refreshToken), session_id: session.id, expires_at: expiresAt })
      .execute();
    return session.id;
  });
  await sessionsChanged(ctx, userId); // the device's earlier session was replaced
  return pair(ctx, userId, sessionId, refreshToken, expiresAt);
}

/**
 * Rotates a refresh token. Presenting an already rotated token revokes the whole chain
 * (it was stolen or replayed), except within a short grace window, where concurrent
 * refreshes of one device all get the same successor instead of a second chain.
 */
export async function rotateRefreshToken(
  ctx: AppContext,
  presented: string,
  meta: ClientMeta,
): Promise<TokenPair> {
  const hash = hashToken(presented);
  const row = await ctx.db
    .selectFrom("refresh_tokens as rt")
    .innerJoin("sessions as s", "s.id", "rt.session_id")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select([
      "rt.session_id",
      "rt.expires_at",
      "rt.rotated_at",
      "s.revoked_at",
      "s.revoked_reason",
      "s.user_id",
      "s.device_pk",
      "s.created_at",
      "s.last_active_at",
      "u.active",
    ])
    .where("rt.token_hash", "=", hash)
    .executeTakeFirst();
  const now = Date.now();
  if (!row) throw unauthorized("Invalid refresh token");
  // Said as such (not as a bad token), so the app can tell the user why they were signed out.
  if (!row.active) throw new HttpError(406, ACCOUNT_DISABLED_MESSAGE);
  if (row.revoked_at && row.revoked_reason === SIGNED_OUT_ELSEWHERE)
    throw new HttpError(406, DEVICE_SIGNED_OUT_MESSAGE);
  if (row.revoked_at) throw unauthorized("Invalid refresh token");
  // Before the token's own expiry, which is capped at the absolute deadline and would
  // otherwise answer first without revoking.
  const ended = sessionLimitReached(
    { createdAt: row.created_at, lastActiveAt: row.last_active_at },
    ctx.config,
    now,
  );
  if (ended) {
    await revokeSession(ctx, row.session_id, ended);
    throw unauthorized(SESSION_END_MESSAGES[ended]);
  }
  if (row.expires_at.getTime() <= now) throw unauthorized("Invalid refresh token");

  const next = ctx.tokens.nextRefreshToken(presented);
  const nextHash = hashToken(next);
  // Sliding, but never past the session's absolute lifetime.
  const expiresAt = refreshExpiry(row.created_at, ctx.config, now);

  const rotated = await ctx.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("refresh_tokens")
      .set({ rotated_at: new Date(now) })
      .where("token_hash", "=", hash)
      .where("rotated_at", "is", null)
      .returning("token_hash")
      .executeTakeFirst();
    if (!claimed) return false;
    await trx
      .insertInto("refresh_tokens")
      .values({ token_hash: nextHash, session_id: row.session_id, expires_at: expiresAt })
      .onConflict((oc) => oc.column("token_hash").doNothing())
      .execute();
    await trx
      .updateTable("sessions")
      .set({ expires_at: expiresAt, last_active_at: new Date(now) })
      .where("id", "=", row.session_id)
      .execute();
    await trx
      .updateTable("devices")
      .set({ last_seen_at: new Date(now), ...(meta.ip ? { ip: meta.ip } : {}) })
      .where("id", "=", row.device_pk)
      .execute();
    return true;
  });

  if (!rotated) {
    const successor = await ctx.db
      .selectFrom("refresh_tokens")
      .select(["rotated_at", "expires_at", "created_at"])
      .where("token_hash", "=", nextHash)
      .executeTakeFirst();
    const rotatedAt = row.rotated_at?.getTime() ?? now;
    const inGrace = now - rotatedAt <= REFRESH_GRACE_MS;
    if (!successor || successor.rotated_at || !inGrace) {
      await revokeSession(ctx, row.session_id, "reuse");
      throw unauthorized("Refresh token reuse detected; please sign in again");
    }
    return pair(ctx, row.user_id, row.session_id, next, successor.expires_at);
  }
  return pair(ctx, row.user_id, row.session_id, next, expiresAt);
}

/**
 * Closes a session. Reason 'logout' (the device itself) and SIGNED_OUT_ELSEWHERE make its
 * access tokens answer 406, any other 401.
 */
export async function revokeSession(ctx: AppContext, sessionId: string, reason: string) {
  const revoked = await ctx.db
    .updateTable("sessions")
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where("id", "=", sessionId)
    .where("revoked_at", "is", null)
    .returning("user_id")
    .executeTakeFirst();
  if (revoked) await sessionsChanged(ctx, revoked.user_id);
}

/**
 * Signs a device of a user out (all of its live sessions) and tells those sessions' open
 * pages at once. Returns false when unknown. `by` is who asked (the user or an admin), for
 * the security log; the asking session itself (signing out the device it runs on) is not
 * told, since it ends its session by itself.
 */
export async function signOutDevice(
  ctx: AppContext,
  userId: string,
  deviceId: string,
  by: ClientMeta & { actorId: string | null; actorSessionId?: string } = {
    actorId: null,
    ip: null,
    userAgent: null,
  },
): Promise<boolean> {
  const device = await ctx.db
    .selectFrom("devices")
    .select(["id", "device_name"])
    .where("user_id", "=", userId)
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  if (!device) return false;
  const revoked = await ctx.db
    .updateTable("sessions")
    .set({ revoked_at: new Date(), revoked_reason: SIGNED_OUT_ELSEWHERE })
    .where("device_pk", "=", device.id)
    .where("revoked_at", "is", null)
    .returning("id")
    .execute();
  await sessionsChanged(ctx, userId);
  const told = revoked.map((r) => r.id).filter((id) => id !== by.actorSessionId);
  if (told.length)
    ctx.accountEvents.publish({
      type: "session-ended",
      userId,
      reason: "device-signed-out",
      sessionIds: told,
    });
  const { actorSessionId: _, ...actor } = by;
  await recordSecurityEvent(ctx, {
    type: "device_revoked",
    userId,
    ...actor,
    details: { deviceId, deviceName: device.device_name, sessionsClosed: revoked.length },
  });
  return true;
}

/**
 * Ends the user's sign-ins half done: a challenge proves a password that was right when it was
 * given, so a password changed or reset, an account disabled or a second factor reset since
 * must not let it finish.
 */
export async function endHalfDoneSignIns(db: AppContext["db"], userId: string) {
  await db.deleteFrom("second_factor_challenges").where("user_id", "=", userId).execute();
}

/** Closes every session of a user (password reset, disable, delete) and any sign-in half done. */
export async function revokeAllSessions(ctx: AppContext, userId: string, reason: string) {
  await endHalfDoneSignIns(ctx.db, userId);
  await ctx.db
    .updateTable("sessions")
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
  await sessionsChanged(ctx, userId);
}

/** Closes every session of a user but one (the caller's own, after a password change). */
export async function revokeOtherSessions(
  ctx: AppContext,
  userId: string,
  keepSessionId: string,
  reason: string,
) {
  const revoked = await ctx.db
    .updateTable("sessions")
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where("user_id", "=", userId)
    .where("id", "!=", keepSessionId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  await sessionsChanged(ctx, userId);
  return Number(revoked.numUpdatedRows);
}
