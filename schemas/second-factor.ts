/**
 * The second factor's wire types and request schemas (TOTP, RFC 6238; docs/platform-api.md
 * "Second factor"). Shared by the server and the SPA. Pure data.
 */
import type { SignInResponse } from "./auth";

/** Who must have a second factor: the admin setting. */
export const SECOND_FACTOR_POLICIES = ["nobody", "admins", "everyone"] as const;
export type SecondFactorPolicy = (typeof SECOND_FACTOR_POLICIES)[number];
export const SECOND_FACTOR_POLICY_LABELS: Record<SecondFactorPolicy, string> = {
  nobody: "Nobody (each user may choose)",
  admins: "Admins only (other users may choose)",
  everyone: "Everyone",
};

/**
 * An app code as pasted or typed: apps show "123 456", some people write "123-456". Both sides
 * keep the six digits (the form as it is typed, the server before it checks).
 */
export const appCodeOf = (value: string) => value.replace(/[\s-]/g, "");

/** How many recovery codes an enrolment gives. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * `POST /api/auth/signin` answers this (status 202) instead of tokens when the password was right
 * and a second step is due: 'totp' asks for a code (or a recovery code), 'enrol' for setting
 * up an authenticator first (the policy requires one and the account has none).
 */
export interface SecondFactorChallenge {
  secondFactor: "totp" | "enrol";
  challenge: string;
  /** When the challenge stops working (epoch ms). */
  challengeExpiry: number;
}

export const isSecondFactorChallenge = (
  answer: SignInResponse | SecondFactorChallenge,
): answer is SecondFactorChallenge => "challenge" in answer && typeof answer.challenge === "string";

/** A new authenticator's secret (base32) and the `otpauth://` URI its QR code carries. */
export interface TotpEnrolment {
  secret: string;
  uri: string;
}

/** Answer of a confirmed enrolment and of new recovery codes: shown once, never again. */
export interface RecoveryCodes {
  recoveryCodes: string[];
}

/** `GET /api/users/me/second-factor`. */
export interface SecondFactorStatus {
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
  /** The policy requires one of this user (they may not turn it off). */
  required: boolean;
}

/** The sign-in that finished an enrolment: tokens, and the recovery codes to write down. */
export type EnrolledSignIn = SignInResponse & RecoveryCodes;

const code = {
  type: "string",
  minLength: 1,
  maxLength: 40,
  title: "Code",
  description: "The six digits the authenticator app shows, or a recovery code",
} as const;
const totpCode = {
  type: "string",
  pattern: "^\\s*\\d{3}[\\s-]?\\d{3}\\s*$",
  title: "Code",
  "x-patternMessage": "must be the six digits your authenticator app shows",
} as const;
const challenge = { type: "string", minLength: 1, maxLength: 200, title: "Challenge" } as const;

export const secondFactorSignInBodySchema = {
  type: "object",
  required: ["challenge", "code"],
  additionalProperties: false,
  properties: { challenge, code },
} as const;

export const enrolChallengeBodySchema = {
  type: "object",
  required: ["challenge"],
  additionalProperties: false,
  properties: { challenge },
} as const;

export const enrolConfirmChallengeBodySchema = {
  type: "object",
  required: ["challenge", "code"],
  additionalProperties: false,
  properties: { challenge, code: totpCode },
} as const;

/** My account: confirming an enrolment takes an app code only. */
export const totpCodeBodySchema = {
  type: "object",
  required: ["code"],
  additionalProperties: false,
  properties: { code: totpCode },
} as const;

/** My account: new recovery codes, turning off: an app code or a recovery code. */
export const anyCodeBodySchema = {
  type: "object",
  required: ["code"],
  additionalProperties: false,
  properties: { code },
} as const;

export const policyBodySchema = {
  type: "object",
  required: ["required"],
  additionalProperties: false,
  properties: { required: { type: "string", enum: [...SECOND_FACTOR_POLICIES], title: "Required for" } },
} as const;
