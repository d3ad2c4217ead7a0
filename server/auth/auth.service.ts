/** Sign-in and password reset: the account-level rules around sessions. */
import { sql } from "kysely";
import type { SignInRequest, SignInResponse } from "../../schemas/auth";
import type { AppContext } from "../context";
import { badRequest, HttpError, tooManyRequests, unauthorized } from "../http/errors";
import { getMe } from "../modules/users/users.service";
import { hashPassword, verifyPassword } from "./passwords";
import { attempts, hit, resetAttempts } from "./rate-limit";
import { type ClientMeta, openSession, revokeAllSessions } from "./sessions.service";
import { hashToken, newOpaqueToken } from "./tokens";

export const INVALID_CREDENTIALS = "Invalid email or password";
export const FORGOT_PASSWORD_ANSWER =
  "If an account exists for that email, a password reset link has been sent.";
export const RESET_LINK_INVALID = "This reset link is invalid or has expired.";
export const RESET_DONE = "Your password has been reset. You can now sign in.";

const normalise = (email: string) => email.trim().toLowerCase();

async function limit(ctx: AppContext, key: string, max: number) {
  if ((await hit(ctx.db, key)) > max) throw tooManyRequests();
}

export async function signIn(
  ctx: AppContext,
  input: SignInRequest,
  meta: ClientMeta,
): Promise<SignInResponse> {
  const email = normalise(input.email);
  const accountKey = `signin:account:${email}`;
  await limit(ctx, `signin:ip:${meta.ip}`, ctx.config.authMaxAttemptsIp);
  if ((await attempts(ctx.db, accountKey)) >= ctx.config.authMaxAttempts) throw tooManyRequests();

  const user = await ctx.db
    .selectFrom("users")
    .select(["id", "password_hash", "active"])
    .where(sql<boolean>`lower(email) = ${email}`)
    .executeTakeFirst();
  const ok = await verifyPassword(user?.password_hash ?? null, input.password);
  if (!user || !ok) {
    await hit(ctx.db, accountKey);
    throw unauthorized(INVALID_CREDENTIALS);
  }
  if (!user.active) throw new HttpError(406, "This account is disabled");
  await resetAttempts(ctx.db, accountKey);
  const tokens = await openSession(ctx, user.id, input.deviceInfo, meta);
  return { ...tokens, user: await getMe(ctx, user.id) };
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
  await limit(ctx, `reset:ip:${meta.ip}`, ctx.config.authMaxAttemptsIp);
  await limit(ctx, `reset:account:${email}`, ctx.config.authMaxAttempts);
  const user = await ctx.db
    .selectFrom("users")
    .select(["id", "first_name", "email", "active"])
    .where(sql<boolean>`lower(email) = ${email}`)
    .executeTakeFirst();
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
  await limit(ctx, `reset:ip:${meta.ip}`, ctx.config.authMaxAttemptsIp);
  const passwordHash = await hashPassword(password);
  const userId = await ctx.db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable("password_resets")
      .set({ used_at: new Date() })
      .where("token_hash", "=", hashToken(id))
      .where("used_at", "is", null)
      .where("expires_at", ">", new Date())
      .returning("user_id")
      .executeTakeFirst();
    if (!used) return null;
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
    return used.user_id;
  });
  if (!userId) throw badRequest(RESET_LINK_INVALID, [{ field: "id", message: RESET_LINK_INVALID }]);
  await revokeAllSessions(ctx, userId, "password_reset");
  const user = await ctx.db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
  if (user) await resetAttempts(ctx.db, `signin:account:${normalise(user.email)}`);
  return RESET_DONE;
}
