/**
 * The signed-in user's own account calls. Through the session client (`http`): a 401 here
 * means the session is over; a wrong current password is a 400 with field details.
 */
import { http } from "../../../providers/http";
import type { ChangePasswordRequest } from "../../../schemas/auth";

export interface PasswordChanged {
  message: string;
  signedOutSessions: number;
}

/**
 * Changes the signed-in user's password (`POST /api/users/me/password`).
 *
 * @example
 * await changeMyPassword({ currentPassword, newPassword, signOutOtherDevices: true });
 */
export async function changeMyPassword(body: ChangePasswordRequest): Promise<PasswordChanged> {
  const { data } = await http.post<PasswordChanged>("/api/users/me/password", body);
  return data;
}

/** The success message shown after a change, naming the devices signed out. */
export function passwordChangedMessage(
  { signedOutSessions }: PasswordChanged,
  askedToSignOut: boolean,
): string {
  if (!askedToSignOut) return "Your password has been changed. Your other devices stay signed in.";
  if (signedOutSessions === 0) return "Your password has been changed. No other device was signed in.";
  const devices = signedOutSessions === 1 ? "1 other device was" : `${signedOutSessions} other devices were`;
  return `Your password has been changed. ${devices} signed out.`;
}
