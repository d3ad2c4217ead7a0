/**
 * A user's second factor (TOTP, RFC 6238) and recovery codes: enrolment, checking a code
 * (a time step is accepted once, a recovery code once), new recovery codes, turning it off,
 * an admin's reset, and the policy of who must have one. The sign-in's second step is in
 * second-factor.signin.ts. The secret is sealed at rest and never logged.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import {
  appCodeOf,
  RECOVERY_CODE_COUNT,
  type RecoveryCodes,
  SECOND_FACTOR_POLICIES,
  type SecondFactorPolicy,
  type SecondFactorStatus,
  type TotpEnrolment,
} from "../../schemas/second-factor";
import type { SecurityEventType } from "../../schemas/security-events";
import type { AppContext } from "../context";
import { badRequest, conflict, forbidden, HttpError, notFound, tooManyRequests } from "../http/errors";
import { recordSecurityEvent } from "../security/events";
import { SecretBoxError } from "../security/secret-box";
import { ROLE_ADMIN } from "./principal";
import { hit, resetAttempts } from "./rate-limit";
import { type ClientMeta, endHalfDoneSignIns } from "./sessions.service";
import { hashToken } from "./tokens";
import { base32Encode, matchTotp, newTotpSecret, otpauthUri } from "./totp";

const POLICY_SETTING = "second_factor_required";

export const WRONG_CODE = "That code is not right. Check your phone's clock and enter the newest code.";
export const ALREADY_ENROLLED =
  "A second factor is already set up for this account. Turn it off first, or ask an admin to reset it.";
export const NOT_ENROLLED = "This account has no second factor set up.";
export const ENROLMENT_NOT_STARTED = "Start setting up your authenticator app again: this set-up has ended.";
export const SECRET_UNREADABLE =
  "Two-step sign-in cannot check app codes for this account: the server no longer has the encryption key " +
  "(ENCRYPTION_KEY) it was set up with. Use a recovery code, or ask an admin to restore that key or to " +
  "reset your two-step sign-in.";
export const OWN_RESET =
  "You cannot reset your own two-step sign-in: turn it off in My account with a code, or ask another admin.";
export const REQUIRED_CANNOT_DISABLE =
  "Your organisation requires a second factor for your account, so it cannot be turned off.";

/** Whose attempts at codes are counted together (every instance reads the same rows). */
export const codeAttemptsKey = (userId: string) => `2fa:user:${userId}`;
const sealContext = (userId: string) => `user_second_factors.secret:${userId}`;

interface Actor extends ClientMeta {
  email?: string | null;
}

/** A user's own second-factor event, said with who and from where. */
const recordOwnEvent = (
  ctx: AppContext,
  type: SecurityEventType,
  userId: string,
  actor: Actor,
  details?: Record<string, unknown>,
) =>
  recordSecurityEvent(ctx, {
    type,
    userId,
    email: actor.email ?? null,
    ip: actor.ip,
    userAgent: actor.userAgent,
    details,
  });

/** The admin setting; 'nobody' until one is saved. */
export async function secondFactorPolicy(ctx: Pick<AppContext, "db">): Promise<SecondFactorPolicy> {
  const row = await ctx.db
    .selectFrom("app_settings")
    .select("value")
    .where("key", "=", POLICY_SETTING)
    .executeTakeFirst();
  const value = row?.value as SecondFactorPolicy | undefined;
  return value && SECOND_FACTOR_POLICIES.includes(value) ? value : "nobody";
}

export const policyRequires = (policy: SecondFactorPolicy, role: number) =>
  policy === "everyone" || (policy === "admins" && role === ROLE_ADMIN);

export async function setSecondFactorPolicy(
  ctx: AppContext,
  policy: SecondFactorPolicy,
  actor: Actor & { actorId: string },
): Promise<{ required: SecondFactorPolicy }> {
  const before = await secondFactorPolicy(ctx);
  await ctx.db
    .insertInto("app_settings")
    .values({ key: POLICY_SETTING, value: policy })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: policy }))
    .execute();
  if (before !== policy)
    await recordSecurityEvent(ctx, {
      type: "second_factor_policy_changed",
      actorId: actor.actorId,
      ip: actor.ip,
      userAgent: actor.userAgent,
      details: { from: before, to: policy },
    });
  return { required: policy };
}

async function factorOf(ctx: AppContext, userId: string) {
  const row = await ctx.db
    .selectFrom("user_second_factors")
    .select(["secret_sealed", "confirmed_at"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  try {
    return {
      secret: ctx.secrets.open(row.secret_sealed, sealContext(userId)),
      confirmedAt: row.confirmed_at,
    };
  } catch (error) {
    // A key lost or changed without the old one kept: not the user's fault, and not a mystery.
    if (error instanceof SecretBoxError) throw new HttpError(503, SECRET_UNREADABLE);
    throw error;
  }
}

/** The user's confirmed authenticator, if any (a begun, unconfirmed one does not count). */
const confirmedFactor = (ctx: Pick<AppContext, "db">, userId: string) =>
  ctx.db
    .selectFrom("user_second_factors")
    .select("confirmed_at")
    .where("user_id", "=", userId)
    .where("confirmed_at", "is not", null)
    .executeTakeFirst();

export async function hasSecondFactor(ctx: Pick<AppContext, "db">, userId: string): Promise<boolean> {
  return !!(await confirmedFactor(ctx, userId));
}

export async function secondFactorStatus(
  ctx: AppContext,
  userId: string,
  role: number,
): Promise<SecondFactorStatus> {
  const row = await confirmedFactor(ctx, userId);
  const left = await ctx.db
    .selectFrom("user_recovery_codes")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return {
    enabled: !!row,
    enabledAt: row?.confirmed_at ? new Date(row.confirmed_at).toISOString() : null,
    recoveryCodesLeft: row ? Number(left.n) : 0,
    required: policyRequires(await secondFactorPolicy(ctx), role),
  };
}

/**
 * Begins (or begins again) an enrolment: a new secret, kept until a code from it confirms it.
 * Refused while a confirmed one exists: replacing it would need no proof of the old one.
 */
export async function beginEnrolment(ctx: AppContext, userId: string, email: string): Promise<TotpEnrolment> {
  const secret = newTotpSecret();
  const sealed = ctx.secrets.seal(secret, sealContext(userId));
  const saved = await ctx.db
    .insertInto("user_second_factors")
    .values({ user_id: userId, secret_sealed: sealed, confirmed_at: null, last_step: null })
    .onConflict((oc) =>
      oc
        .column("user_id")
        .doUpdateSet({ secret_sealed: sealed, last_step: null, created_at: new Date() })
        .where("user_second_factors.confirmed_at", "is", null),
    )
    .returning("user_id")
    .executeTakeFirst();
  if (!saved) throw conflict(ALREADY_ENROLLED);
  return { secret, uri: otpauthUri(email, secret) };
}

/**
 * Counts one attempt at a code of this user, before it is checked (parallel guesses are all
 * counted); past the limit the answer is 429 (the wrong code that reached it logged the lockout).
 */
export async function countCodeAttempt(ctx: AppContext, userId: string): Promise<number> {
  const attempt = await hit(ctx.db, codeAttemptsKey(userId));
  if (attempt > ctx.config.authMaxAttempts) throw tooManyRequests();
  return attempt;
}

/** A wrong code: logged as a failed sign-in step, and the lockout when it was the last allowed. */
export async function recordWrongCode(
  ctx: AppContext,
  userId: string,
  attempt: number,
  actor: Actor,
  action: string,
) {
  const client = { userId, email: actor.email ?? null, ip: actor.ip, userAgent: actor.userAgent };
  await recordSecurityEvent(ctx, {
    type: "signin_failed",
    ...client,
    details: { reason: "wrong_code", action },
  });
  if (attempt === ctx.config.authMaxAttempts)
    await recordSecurityEvent(ctx, {
      type: "lockout",
      ...client,
      details: { action, scope: "second_factor" },
    });
}

const newRecoveryCode = () => {
  const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
};
/** What is hashed: case, spaces and dashes are how people copy codes, not part of them. */
const recoveryHash = (code: string) => hashToken(`recovery:${code.replace(/[\s-]/g, "").toLowerCase()}`);

async function replaceRecoveryCodes(db: AppContext["db"], userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.deleteFrom("user_recovery_codes").where("user_id", "=", userId).execute();
  await db
    .insertInto("user_recovery_codes")
    .values(codes.map((code) => ({ user_id: userId, code_hash: recoveryHash(code) })))
    .execute();
  return codes;
}

/** Confirms an enrolment with a code from the app; answers the ten recovery codes, once. */
export async function confirmEnrolment(
  ctx: AppContext,
  userId: string,
  code: string,
  actor: Actor,
): Promise<RecoveryCodes> {
  const attempt = await countCodeAttempt(ctx, userId);
  const factor = await factorOf(ctx, userId);
  if (factor?.confirmedAt) throw conflict(ALREADY_ENROLLED);
  if (!factor) throw badRequest(ENROLMENT_NOT_STARTED, [{ field: "code", message: ENROLMENT_NOT_STARTED }]);
  const step = matchTotp(factor.secret, appCodeOf(code));
  if (step === null) {
    await recordWrongCode(ctx, userId, attempt, actor, "second_factor_enrol");
    throw badRequest(WRONG_CODE, [{ field: "code", message: WRONG_CODE }]);
  }
  const codes = await ctx.db.transaction().execute(async (trx) => {
    const confirmed = await trx
      .updateTable("user_second_factors")
      .set({ confirmed_at: new Date(), last_step: step })
      .where("user_id", "=", userId)
      .where("confirmed_at", "is", null)
      .returning("user_id")
      .executeTakeFirst();
    if (!confirmed) return null;
    return replaceRecoveryCodes(trx, userId);
  });
  if (!codes) throw conflict(ALREADY_ENROLLED);
  await resetAttempts(ctx.db, codeAttemptsKey(userId));
  await recordOwnEvent(ctx, "second_factor_enabled", userId, actor);
  return { recoveryCodes: codes };
}

/**
 * Checks a code of a user with a confirmed second factor: six digits are an app code (its
 * time step must come after the last one accepted), anything else a recovery code (spent
 * here). Both checks are one conditional update, so two instances never accept one code twice.
 */
export async function spendCode(
  ctx: AppContext,
  userId: string,
  code: string,
  actor: Actor,
): Promise<"totp" | "recovery" | null> {
  const digits = appCodeOf(code);
  if (/^\d{6}$/.test(digits)) {
    const factor = await factorOf(ctx, userId);
    if (!factor?.confirmedAt) return null;
    const step = matchTotp(factor.secret, digits);
    if (step === null) return null;
    const taken = await ctx.db
      .updateTable("user_second_factors")
      .set({ last_step: step })
      .where("user_id", "=", userId)
      .where("confirmed_at", "is not", null)
      .where(sql<boolean>`(last_step is null or last_step < ${step})`)
      .returning("user_id")
      .executeTakeFirst();
    return taken ? "totp" : null;
  }
  const spent = await ctx.db
    .updateTable("user_recovery_codes")
    .set({ used_at: new Date() })
    .where("user_id", "=", userId)
    .where("code_hash", "=", recoveryHash(code))
    .where("used_at", "is", null)
    .returning("id")
    .executeTakeFirst();
  if (!spent) return null;
  const left = await ctx.db
    .selectFrom("user_recovery_codes")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  await recordOwnEvent(ctx, "recovery_code_used", userId, actor, { recoveryCodesLeft: Number(left.n) });
  return "recovery";
}

/** Checks a code for a change of the user's own factor (new codes, turning it off). */
async function proveCode(ctx: AppContext, userId: string, code: string, actor: Actor, action: string) {
  if (!(await hasSecondFactor(ctx, userId))) throw badRequest(NOT_ENROLLED);
  const attempt = await countCodeAttempt(ctx, userId);
  if (!(await spendCode(ctx, userId, code, actor))) {
    await recordWrongCode(ctx, userId, attempt, actor, action);
    throw badRequest(WRONG_CODE, [{ field: "code", message: WRONG_CODE }]);
  }
  await resetAttempts(ctx.db, codeAttemptsKey(userId));
}

/** Ten new recovery codes in place of the old ones, for a code from the app (or a recovery code). */
export async function regenerateRecoveryCodes(
  ctx: AppContext,
  userId: string,
  code: string,
  actor: Actor,
): Promise<RecoveryCodes> {
  await proveCode(ctx, userId, code, actor, "recovery_codes");
  const codes = await ctx.db.transaction().execute((trx) => replaceRecoveryCodes(trx, userId));
  await recordOwnEvent(ctx, "recovery_codes_regenerated", userId, actor);
  return { recoveryCodes: codes };
}

async function removeFactor(db: AppContext["db"], userId: string) {
  const removed = await db.deleteFrom("user_second_factors").where("user_id", "=", userId).executeTakeFirst();
  await db.deleteFrom("user_recovery_codes").where("user_id", "=", userId).execute();
  // A sign-in half done with the old factor must not finish with it.
  await endHalfDoneSignIns(db, userId);
  return Number(removed.numDeletedRows) > 0;
}

/** The user turns their own second factor off, with a code; not while the policy requires it. */
export async function disableOwnSecondFactor(
  ctx: AppContext,
  user: { userId: string; role: number },
  code: string,
  actor: Actor,
) {
  if (policyRequires(await secondFactorPolicy(ctx), user.role)) throw forbidden(REQUIRED_CANNOT_DISABLE);
  await proveCode(ctx, user.userId, code, actor, "second_factor_disable");
  await ctx.db.transaction().execute((trx) => removeFactor(trx, user.userId));
  await recordOwnEvent(ctx, "second_factor_disabled", user.userId, actor);
}

/**
 * An admin resets a user's second factor (a lost phone): the user signs in with the password
 * alone, or enrols again first when the policy requires it. Security-logged with the admin.
 */
export async function resetSecondFactor(
  ctx: AppContext,
  userId: string,
  actor: ClientMeta & { actorId: string },
): Promise<void> {
  const user = await ctx.db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
  if (!user) throw notFound("User not found");
  // Without a code and past the policy: a stolen admin session must not strip its own factor.
  if (userId === actor.actorId) throw forbidden(OWN_RESET);
  const had = await ctx.db.transaction().execute((trx) => removeFactor(trx, userId));
  await resetAttempts(ctx.db, codeAttemptsKey(userId));
  await recordSecurityEvent(ctx, {
    type: "second_factor_reset",
    userId,
    actorId: actor.actorId,
    email: user.email,
    ip: actor.ip,
    userAgent: actor.userAgent,
    details: { hadSecondFactor: had },
  });
}
