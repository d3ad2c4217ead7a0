/**
 * The public auth calls: sign-in, forgot password, reset password. They run before there is
 * a session, so the session rules of `http` are off for them (a 401 here means "wrong
 * password", not "session over"). Kept free of Refine, antd and axios
 * (plain fetch, providers/public-call.ts): the sign-in screens import it and must stay in the
 * small first chunk.
 */
import type { SignInRequest, SignInResponse } from "../schemas/auth";
import {
  type EnrolledSignIn,
  isSecondFactorChallenge,
  type SecondFactorChallenge,
  type TotpEnrolment,
} from "../schemas/second-factor";
import { getDeviceInfo } from "../src/browser/device-info";
import { postPublic } from "./public-call";
import { saveTokens } from "./token-store";

/**
 * Signs in with this device's info (spec §3), stores the tokens and returns the answer. An
 * account with a second factor answers a challenge instead (no tokens yet): the second step
 * is `signInSecondStep`, or the enrolment calls below when the challenge is 'enrol'.
 * Rejects with a PublicCallError; `getErrorMessage` gives the server's words.
 *
 * @example
 * const answer = await signIn("ada@example.com", "correct horse battery");
 * if (isSecondFactorChallenge(answer)) askForCode(answer.challenge);
 */
export async function signIn(
  email: string,
  password: string,
): Promise<SignInResponse | SecondFactorChallenge> {
  const body: SignInRequest = { email, password, deviceInfo: getDeviceInfo() };
  const data = await postPublic<SignInResponse | SecondFactorChallenge>("/api/auth/signin", body);
  if (!isSecondFactorChallenge(data)) saveTokens(data);
  return data;
}

/** The second step: an app code or a recovery code; stores the tokens. */
export async function signInSecondStep(challenge: string, code: string): Promise<SignInResponse> {
  const data = await postPublic<SignInResponse>("/api/auth/signin/second-factor", { challenge, code });
  saveTokens(data);
  return data;
}

/** An 'enrol' challenge: a new authenticator secret and its `otpauth://` URI. */
export const enrolAtSignIn = (challenge: string) =>
  postPublic<TotpEnrolment>("/api/auth/signin/second-factor/enrol", { challenge });

/**
 * Confirms the enrolment with a code and signs in. The tokens are not stored yet: the screen
 * shows the recovery codes first, then `finishSignIn` stores them.
 */
export const confirmEnrolmentAtSignIn = (challenge: string, code: string) =>
  postPublic<EnrolledSignIn>("/api/auth/signin/second-factor/enrol/confirm", { challenge, code });

/** Stores the tokens of a sign-in answered earlier (after its recovery codes were shown). */
export function finishSignIn(answer: SignInResponse): void {
  saveTokens(answer);
}

/** Asks for a reset mail; resolves with the server's neutral message (same for any email). */
export async function requestPasswordReset(email: string): Promise<string> {
  const data = await postPublic<{ message: string }>("/api/auth/forgot-password", { email });
  return data.message;
}

/** Sets a new password with the id from the reset link; resolves with the server's message. */
export async function resetPassword(id: string, password: string): Promise<string> {
  const data = await postPublic<{ message: string }>("/api/auth/reset-password", { id, password });
  return data.message;
}

/** What a set-password link is for: a forgotten password, or an invitation to a new account. */
export type PasswordLinkKind = "reset" | "invite";

/**
 * Asks what a link is for, so the page can say "Set your password" to an invited user.
 * Rejects with a PublicCallError (400 when the link is unknown, used or expired).
 */
export async function describeResetLink(id: string): Promise<PasswordLinkKind> {
  const data = await postPublic<{ kind: PasswordLinkKind }>("/api/auth/reset-password/info", { id });
  return data.kind;
}
