/**
 * A signed-in user changes their own password. The current password is required and its
 * failures count against the same per-account and per-IP limits as sign-in, so this route
 * is no second way to guess it.
 */
import type { ChangePasswordRequest } from "../../../schemas/auth";
import { voidPasswordLinks } from "../../auth/password-links";
import { COMMON_PASSWORD, hashPassword, isCommonPassword, verifyPassword } from "../../auth/passwords";
import type { Principal } from "../../auth/principal";
import { hit, resetAttempts } from "../../auth/rate-limit";
import { type ClientMeta, endHalfDoneSignIns, revokeOtherSessions } from "../../auth/sessions.service";
import type { AppContext } from "../../context";
import { badRequest, type FieldError, notFound, tooManyRequests } from "../../http/errors";
import { recordSecurityEvent } from "../../security/events";

export const CURRENT_PASSWORD_WRONG = "Your current password is not correct.";
export const SAME_PASSWORD = "Choose a password different from your current one.";
export const PASSWORD_CHANGED = "Your password has been changed.";

export interface PasswordChanged {
  message: string;
  /** Other sessions signed out by this change (0 unless asked). */
  signedOutSessions: number;
}

export async function changeOwnPassword(
  ctx: AppContext,
  me: Principal,
  input: ChangePasswordRequest,
  meta: ClientMeta,
): Promise<PasswordChanged> {
  const user = await ctx.db
    .selectFrom("users")
    .select(["id", "email", "password_hash"])
    .where("id", "=", me.userId)
    .executeTakeFirst();
  if (!user) throw notFound("User not found");
  // The same keys as sign-in (auth.service.ts): one budget of guesses per account and per IP.
  const accountKey = `signin:account:${user.email.trim().toLowerCase()}`;
  if ((await hit(ctx.db, `signin:ip:${meta.ip}`)) > ctx.config.authMaxAttemptsIp) throw tooManyRequests();
  // Counted before the check, in one statement, as on sign-in: parallel guesses must not all
  // pass a limit read before any of them was counted. The right password clears the count.
  const attempt = await hit(ctx.db, accountKey);
  if (attempt > ctx.config.authMaxAttempts) throw tooManyRequests();

  const details: FieldError[] = [];
  if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
    details.push({ field: "currentPassword", message: CURRENT_PASSWORD_WRONG });
    // As on sign-in: the failure that locks the account is a lockout in the security log.
    if (attempt === ctx.config.authMaxAttempts)
      await recordSecurityEvent(ctx, {
        type: "lockout",
        userId: me.userId,
        email: user.email,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: { action: "password_change", scope: "account" },
      });
  } else {
    await resetAttempts(ctx.db, accountKey);
    if (input.newPassword === input.currentPassword)
      details.push({ field: "newPassword", message: SAME_PASSWORD });
  }
  // Both fields are judged at once, so the form shows every problem in one round.
  if (!details.some((d) => d.field === "newPassword") && (await isCommonPassword(input.newPassword)))
    details.push({ field: "newPassword", message: COMMON_PASSWORD });
  if (details.length) throw badRequest(details[0].message, details);

  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: new Date(), updated_by: me.userId })
      .where("id", "=", me.userId)
      .execute();
    // A reset link mailed earlier would otherwise undo this change.
    await voidPasswordLinks(trx, me.userId);
    // Nor may a sign-in begun with the old password finish its second step.
    await endHalfDoneSignIns(trx, me.userId);
  });
  const signedOutSessions = input.signOutOtherDevices
    ? await revokeOtherSessions(ctx, me.userId, me.sessionId, "password_changed")
    : 0;
  await recordSecurityEvent(ctx, {
    type: "password_changed",
    userId: me.userId,
    actorId: me.userId,
    email: user.email,
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: { signOutOtherDevices: input.signOutOtherDevices === true, signedOutSessions },
  });
  return { message: PASSWORD_CHANGED, signedOutSessions };
}
