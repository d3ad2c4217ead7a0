/**
 * The public auth calls: sign-in, forgot password, reset password. They run before there is
 * a session, so the session rules of `http` are off for them (a 401 here means "wrong
 * password", not "session over"). Kept free of Refine, antd and axios
 * (plain fetch, providers/public-call.ts): the sign-in screens import it and must stay in the
 * small first chunk.
 */
import type { SignInRequest, SignInResponse } from "../schemas/auth";
import { getDeviceInfo } from "../src/browser/device-info";
import { postPublic } from "./public-call";
import { saveTokens } from "./token-store";

/**
 * Signs in with this device's info (spec §3), stores the tokens and returns the answer.
 * Rejects with a PublicCallError; `getErrorMessage` gives the server's words.
 *
 * @example
 * const { user } = await signIn("ada@example.com", "correct horse battery");
 */
export async function signIn(email: string, password: string): Promise<SignInResponse> {
  const body: SignInRequest = { email, password, deviceInfo: getDeviceInfo() };
  const data = await postPublic<SignInResponse>("/api/auth/signin", body);
  saveTokens(data);
  return data;
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
