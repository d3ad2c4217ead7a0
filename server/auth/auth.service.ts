/** Sign-in and password reset: the account-level rules around sessions. */
import { sql } from "kysely";
import { ACCOUNT_DISABLED_MESSAGE, type SignInRequest, type SignInResponse } from "../../schemas/auth";
import type { SecondFactorChallenge } from "../../schemas/second-factor";
import type { AppContext } from "../context";
import { badRequest, HttpError, tooManyRequests, unauthorized } from "../http/errors";
import { scrubDeadLinks } from "../mail/outbox-secrets";
import { recordSecurityEvent } from "../security/events";
import { livePasswordLinkKind, type PasswordLinkKind } from "./password-links";
import { assertAcceptablePassword, hashPassword, verifyPassword } from "./passwords";
import { hit, resetAttempts } from "./rate-limit";
import { secondFactorChallengeFor } from "./second-factor.signin";
import { type ClientMeta, revokeAllSessions } from "./sessions.service";
import { completeSignIn, limitAttempts } from "./signin-common";
import { hashToken, newOpaqueToken } from "./tokens";

export const INVALID_CREDENTIALS = "Invalid email or password";
export const FORGOT_PASSWORD_ANSWER =
  "If an account exists for that email, a password reset link has been sent.";
export const RESET_LINK_INVALID = "This reset link is invalid or has expired.";
export const RESET_DONE = "Your password has been reset. You can now sign in.";
export const INVITE_DONE = "Your password is set. You can now sign in.";

const normalise = (email: string) => email.trim().toLowerCase();

export async function signIn(
  ctx: AppContext,
  input: SignInRequest,
  meta: ClientMeta,
): Promise<SignInResponse | SecondFactorChallenge> {
  const email = normalise(input.email);
  const accountKey = `signin:account:${email}`;
  const client = { email, ip: meta.ip, userAgent: meta.userAgent };
  await limitAttempts(ctx, `signin:ip:${meta.ip}`, ctx.config.authMaxAttemptsIp, {
    ...client,
    details: { action: "signin", scope: "ip" },
  });
  // Counted before the password is checked, in one statement: were the count only read here
  // and raised after a failure, parallel guesses would all pass the check before any of
  // them was counted. A right password clears the count below.
  const attempt = await hit(ctx.db, accountKey);
  if (attempt > ctx.config.authMaxAttempts) throw tooManyRequests();

  const user = await ctx.db
    .selectFrom("users")
    .select(["id", "password_hash", "active", "role"])
    .where(sql<boolean>`lower(email) = ${email}`)
    .executeTakeFirst();
  const ok = await verifyPassword(user?.password_hash ?? null, input.password);
  if (!user || !ok) {
    const reason = user ? "wrong_password" : "unknown_account";
    await recordSecurityEvent(ctx, {
      type: "signin_failed",
      userId: user?.id,
      ...client,
      details: { reason },
    });
    // This failure is the one that locks the account for the rest of the window.
    if (attempt === ctx.config.authMaxAttempts)
      await recordSecurityEvent(ctx, {
        type: "lockout",
        userId: user?.id,
        ...client,
        details: { action: "signin", scope: "account" },
      });
    throw unauthorized(INVALID_CREDENTIALS);
  }
  // The right password: this attempt is no guess (a disabled account's included).
  await resetAttempts(ctx.db, accountKey);
  if (!user.active) {
    await recordSecurityEvent(ctx, {
      type: "signin_failed",
      userId: user.id,
      ...client,
      details: { reason: "disabled" },
    });
    throw new HttpError(406, ACCOUNT_DISABLED_MESSAGE);
  }
  // An account with a second factor (or one the policy requires to enrol) gets no tokens yet.
  const challenge = await secondFactorChallengeFor(ctx, user, input.deviceInfo);
  if (challenge) return challenge;
  return completeSignIn(ctx, user.id, input.deviceInfo, meta, client);
}

/**
 * Starts a password reset. Answers the same whether or not the account exists; the
 * link's host comes from PUBLIC_URL only, never from the request.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  rawEmail: string,
  meta: ClientMeta,
): Promise<string> {
  const email = normalise(rawEmail);
  const client = { email, ip: meta.ip, userAgent: meta.userAgent };
  await limitAttempts(ctx, `reset:ip:${meta.ip}`, ctx.config.authMaxAttemptsIp, {
    ...client,
    details: { action: "password_reset_request", scope: "ip" },
  });
  await limitAttempts(ctx, `reset:account:${email}`, ctx.config.authMaxAttempts, {
    ...client,
    details: { action: "password_reset_request", scope: "account" },
  });
  const user = await ctx.db
    .selectFrom("users")
    .select(["id", "first_name", "email", "active"])
    .where(sql<boolean>`lower(email) = ${email}`)
    .executeTakeFirst();
  // The answer never tells whether the account exists; the admins' log does.
  await recordSecurityEvent(ctx, {
    type: "password_reset_requested",
    userId: user?.id,
    ...client,
    details: { accountFound: !!user, linkSent: !!user?.active },
  });
  if (user?.active) {
    const id = newOpaqueToken(32);
    await ctx.db
      .insertInto("password_resets")
      .values({
        token_hash: hashToken(id),
        user_id: user.id,
        expires_at: new Date(Date.now() + ctx.config.resetTokenTtl * 1000),
      })
      .execute();
    const link = `${ctx.config.publicUrl}/manage/resetpassword/${id}`;
    const minutes = Math.round(ctx.config.resetTokenTtl / 60);
    await ctx.mailer.send({
      to: user.email,
      subject: "Reset your Atelier password",
      text: [
        `Hello ${user.first_name},`,
        "",
        "Someone asked to reset the password of your Atelier account. To choose a new one, open:",
        link,
        "",
        `The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this mail.`,
      ].join("\n"),
    });
  }
  return FORGOT_PASSWORD_ANSWER;
}

/** Completes a reset: single use, not expired; signs the user out everywhere. */
export async function resetPassword(
  ctx: AppContext,
  id: string,
  password: string,
  meta: ClientMeta,
): Promise<string> {
  await limitAttempts(ctx, `reset:ip:${meta.ip}`, ctx.config.authMaxAttemptsIp, {
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: { action: "password_reset", scope: "ip" },
  });
  // Checked before the link is spent, so a refused password leaves the link usable.
  await assertAcceptablePassword(password);
  const passwordHash = await hashPassword(password);
  // Set inside the transaction; declared wide so the check below is not narrowed away.
  let kind = "reset" as PasswordLinkKind;
  const userId = await ctx.db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable("password_resets")
      .set({ used_at: new Date() })
      .where("token_hash", "=", hashToken(id))
      .where("used_at", "is", null)
      .where("expires_at", ">", new Date())
      .returning(["user_id", "kind"])
      .executeTakeFirst();
    if (!used) return null;
    kind = used.kind;
    await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: new Date() })
      .where("id", "=", used.user_id)
      .execute();
    // Any other outstanding link of this user dies with this reset.
    await trx
      .updateTable("password_resets")
      .set({ used_at: new Date() })
      .where("user_id", "=", used.user_id)
      .where("used_at", "is", null)
      .execute();
    // The used (and voided) links leave the outbox's stored copies with this same commit.
    await scrubDeadLinks(trx, { userId: used.user_id });
    await recordSecurityEvent(
      { db: trx, log: ctx.log },
      {
        type: "password_reset",
        userId: used.user_id,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: { kind: used.kind },
      },
    );
    return used.user_id;
  });
  if (!userId) throw badRequest(RESET_LINK_INVALID, [{ field: "id", message: RESET_LINK_INVALID }]);
  await revokeAllSessions(ctx, userId, "password_reset");
  const user = await ctx.db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
  if (user) await resetAttempts(ctx.db, `signin:account:${normalise(user.email)}`);
  return kind === "invite" ? INVITE_DONE : RESET_DONE;
}

/**
 * What a set-password link is for ('reset' or 'invite'), so the page can word itself; a
 * used, expired or unknown link answers the same 400 as a failed reset. Counted with the
 * reset attempts of the IP, so it is no faster way to probe links than resetting.
 */
export async function describeResetLink(
  ctx: AppContext,
  id: string,
  meta: ClientMeta,
): Promise<{ kind: PasswordLinkKind }> {
  await limitAttempts(ctx, `reset:ip:${meta.ip}`, ctx.config.authMaxAttemptsIp);
  const kind = await livePasswordLinkKind(ctx.db, id);
  if (!kind) throw badRequest(RESET_LINK_INVALID, [{ field: "id", message: RESET_LINK_INVALID }]);
  return { kind };
}
