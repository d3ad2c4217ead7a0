/**
 * The steps every way of signing in shares: the attempt limit (kept in the database, so every
 * instance counts the same attempts) and the end of a sign-in (a session for the device, the
 * security log's `signin`, the answer with tokens). The password step (auth.service.ts) and the
 * second step (second-factor.signin.ts) both end here.
 */
import type { DeviceInfo, SignInResponse } from "../../schemas/auth";
import type { AppContext } from "../context";
import type { SessionsTable } from "../db/types";
import { tooManyRequests } from "../http/errors";
import { getMe } from "../modules/users/users.service";
import { recordSecurityEvent, type SecurityEventInput } from "../security/events";
import { hit } from "./rate-limit";
import { type ClientMeta, openSession } from "./sessions.service";

/**
 * Counts an attempt under `key`; past `max` refuses it. The first refusal of a window is a
 * lockout in the security log (only the first, so a flood writes one row, not one per request).
 */
export async function limitAttempts(
  ctx: AppContext,
  key: string,
  max: number,
  lockout?: Omit<SecurityEventInput, "type">,
) {
  const count = await hit(ctx.db, key);
  if (count > max) {
    if (lockout && count === max + 1) await recordSecurityEvent(ctx, { type: "lockout", ...lockout });
    throw tooManyRequests();
  }
}

/** How the sign-in passed its second step; null for an account without one. */
export type SecondFactorUsed = SessionsTable["second_factor"];

/** Opens the device's session, logs the sign-in and answers with the tokens and the user. */
export async function completeSignIn(
  ctx: AppContext,
  userId: string,
  device: DeviceInfo,
  meta: ClientMeta,
  client: { email: string },
  secondFactor: SecondFactorUsed = null,
): Promise<SignInResponse> {
  const tokens = await openSession(ctx, userId, device, meta, secondFactor);
  await recordSecurityEvent(ctx, {
    type: "signin",
    userId,
    email: client.email,
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: {
      deviceId: device.deviceId,
      deviceName: device.deviceName,
      ...(secondFactor ? { secondFactor } : {}),
    },
  });
  return { ...tokens, user: await getMe(ctx, userId) };
}
