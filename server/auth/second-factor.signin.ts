/**
 * The sign-in's second step. A right password of an account with a second factor answers a
 * challenge instead of tokens (202, docs/platform-api.md): a random token, kept by hash, that
 * lives five minutes and is spent by the step that issues the tokens. 'verify' takes an app
 * code or a recovery code; 'enrol' (the policy requires a second factor and the account has
 * none) takes nothing but an enrolment, so a required user gets no session without one.
 */
import type { DeviceInfo, SignInResponse } from "../../schemas/auth";
import { ACCOUNT_DISABLED_MESSAGE } from "../../schemas/auth";
import type { EnrolledSignIn, SecondFactorChallenge, TotpEnrolment } from "../../schemas/second-factor";
import type { AppContext } from "../context";
import { HttpError, unauthorized } from "../http/errors";
import { resetAttempts } from "./rate-limit";
import {
  beginEnrolment,
  codeAttemptsKey,
  confirmEnrolment,
  countCodeAttempt,
  policyRequires,
  recordWrongCode,
  secondFactorPolicy,
  spendCode,
} from "./second-factor.service";
import type { ClientMeta } from "./sessions.service";
import { completeSignIn, limitAttempts } from "./signin-common";
import { hashToken, newOpaqueToken } from "./tokens";

export const VERIFY_CHALLENGE_TTL_MS = 5 * 60_000;
/** Longer: installing an app and scanning a code takes a while. */
export const ENROL_CHALLENGE_TTL_MS = 15 * 60_000;
export const CHALLENGE_EXPIRED = "This sign-in has expired. Sign in again with your password.";
export const INVALID_CODE = "Invalid code";

/**
 * The challenge for a user whose password was right, or null when the account signs in with
 * the password alone (no second factor, and the policy does not require one).
 */
export async function secondFactorChallengeFor(
  ctx: AppContext,
  user: { id: string; role: number },
  device: DeviceInfo,
): Promise<SecondFactorChallenge | null> {
  const factor = await ctx.db
    .selectFrom("user_second_factors")
    .select("confirmed_at")
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  let kind: "verify" | "enrol";
  if (factor?.confirmed_at) kind = "verify";
  else if (policyRequires(await secondFactorPolicy(ctx), user.role)) kind = "enrol";
  else return null;
  const challenge = newOpaqueToken(32);
  const expiresAt = new Date(
    Date.now() + (kind === "verify" ? VERIFY_CHALLENGE_TTL_MS : ENROL_CHALLENGE_TTL_MS),
  );
  // The user's dead challenges go as a new one comes: the table holds a few rows per user.
  await ctx.db
    .deleteFrom("second_factor_challenges")
    .where("user_id", "=", user.id)
    .where((eb) => eb.or([eb("expires_at", "<=", new Date()), eb("used_at", "is not", null)]))
    .execute();
  await ctx.db
    .insertInto("second_factor_challenges")
    .values({
      token_hash: hashToken(challenge),
      user_id: user.id,
      kind,
      device_id: device.deviceId,
      device_name: device.deviceName,
      expires_at: expiresAt,
    })
    .execute();
  return {
    secondFactor: kind === "verify" ? "totp" : "enrol",
    challenge,
    challengeExpiry: expiresAt.getTime(),
  };
}

/** The live challenge of `kind` with its user, or 401 (unknown, spent, expired, other kind). */
async function liveChallenge(ctx: AppContext, challenge: string, kind: "verify" | "enrol") {
  const row = await ctx.db
    .selectFrom("second_factor_challenges as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select(["c.user_id", "c.device_id", "c.device_name", "u.email", "u.active"])
    .where("c.token_hash", "=", hashToken(challenge))
    .where("c.kind", "=", kind)
    .where("c.used_at", "is", null)
    .where("c.expires_at", ">", new Date())
    .executeTakeFirst();
  if (!row) throw unauthorized(CHALLENGE_EXPIRED);
  // Disabled between the two steps: said as sign-in says it.
  if (!row.active) throw new HttpError(406, ACCOUNT_DISABLED_MESSAGE);
  return row;
}

/** A second step counts toward sign-in's attempts per address, as the password step does. */
const limitSecondStepIp = (ctx: AppContext, meta: ClientMeta) =>
  limitAttempts(ctx, `signin:ip:${meta.ip}`, ctx.config.authMaxAttemptsIp, {
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: { action: "signin_second_factor", scope: "ip" },
  });

/** Thrown inside the spending transaction to undo the challenge's spend on a wrong code. */
const WRONG_CODE = Symbol("wrong code");

/** Spends the challenge; a second request with it (or one past its expiry) gets 401. */
async function spendChallenge(ctx: Pick<AppContext, "db">, challenge: string) {
  const spent = await ctx.db
    .updateTable("second_factor_challenges")
    .set({ used_at: new Date() })
    .where("token_hash", "=", hashToken(challenge))
    .where("used_at", "is", null)
    .where("expires_at", ">", new Date())
    .returning("user_id")
    .executeTakeFirst();
  if (!spent) throw unauthorized(CHALLENGE_EXPIRED);
}

/**
 * The second step: a challenge and an app code (or a recovery code) answer what sign-in
 * answers an account without a second factor. Wrong codes count toward the attempt limit of
 * the user (shared by every instance); the challenge stays usable until it expires.
 */
export async function signInWithSecondFactor(
  ctx: AppContext,
  input: { challenge: string; code: string },
  meta: ClientMeta,
): Promise<SignInResponse> {
  await limitSecondStepIp(ctx, meta);
  const row = await liveChallenge(ctx, input.challenge, "verify");
  const actor = { email: row.email, ...meta };
  const attempt = await countCodeAttempt(ctx, row.user_id);
  // The challenge and the code are spent together: two requests on one challenge spend one code
  // (the second waits on the challenge's row and finds it used), and a wrong code spends neither.
  const used = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const inTrx = { ...ctx, db: trx };
      await spendChallenge(inTrx, input.challenge);
      const spent = await spendCode(inTrx, row.user_id, input.code, actor);
      if (!spent) throw WRONG_CODE;
      return spent;
    })
    .catch((error: unknown) => {
      if (error === WRONG_CODE) return null;
      throw error;
    });
  if (!used) {
    await recordWrongCode(ctx, row.user_id, attempt, actor, "signin");
    throw unauthorized(INVALID_CODE);
  }
  await resetAttempts(ctx.db, codeAttemptsKey(row.user_id));
  const device = { deviceId: row.device_id, deviceName: row.device_name };
  return completeSignIn(ctx, row.user_id, device, meta, { email: row.email }, used);
}

/** An 'enrol' challenge's first step: a new secret and its URI for the QR code. */
export async function enrolAtSignIn(ctx: AppContext, challenge: string): Promise<TotpEnrolment> {
  const row = await liveChallenge(ctx, challenge, "enrol");
  return beginEnrolment(ctx, row.user_id, row.email);
}

/**
 * An 'enrol' challenge's last step: a code from the app confirms the enrolment, and the answer
 * is sign-in's (the session passed its second step) with the recovery codes to write down.
 */
export async function confirmEnrolmentAtSignIn(
  ctx: AppContext,
  input: { challenge: string; code: string },
  meta: ClientMeta,
): Promise<EnrolledSignIn> {
  await limitSecondStepIp(ctx, meta);
  const row = await liveChallenge(ctx, input.challenge, "enrol");
  const codes = await confirmEnrolment(ctx, row.user_id, input.code, { email: row.email, ...meta });
  await spendChallenge(ctx, input.challenge);
  const device = { deviceId: row.device_id, deviceName: row.device_name };
  const answer = await completeSignIn(ctx, row.user_id, device, meta, { email: row.email }, "enrolled");
  return { ...answer, ...codes };
}
