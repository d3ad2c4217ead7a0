/** The signed-in user's second factor calls (docs/platform-api.md "Second factor"). */
import { http } from "../../../providers/http";
import type { RecoveryCodes, SecondFactorStatus, TotpEnrolment } from "../../../schemas/second-factor";

export const getSecondFactor = async () =>
  (await http.get<SecondFactorStatus>("/api/users/me/second-factor")).data;

/** A new secret to scan; it counts only once a code confirms it. */
export const beginEnrolment = async () =>
  (await http.post<TotpEnrolment>("/api/users/me/second-factor/enrol", {})).data;

export const confirmEnrolment = async (code: string) =>
  (await http.post<RecoveryCodes>("/api/users/me/second-factor/confirm", { code })).data;

export const newRecoveryCodes = async (code: string) =>
  (await http.post<RecoveryCodes>("/api/users/me/second-factor/recovery-codes", { code })).data;

export const turnOffSecondFactor = async (code: string) => {
  await http.post("/api/users/me/second-factor/disable", { code });
};
