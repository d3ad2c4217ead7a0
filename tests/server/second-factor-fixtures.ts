/** Shared by the second factor's server tests: a password, codes computed from a secret. */
import { totpAt } from "../../server/auth/totp";

export const PASSWORD = "Second-factor-passw0rd";

/**
 * Waits (with a deadline) until the current 30-second step has at least 6 s left, so the codes
 * a test computes for this step and the ones around it are still inside the server's window
 * when they arrive.
 */
export async function awayFromStepEdge() {
  const deadline = Date.now() + 10_000;
  while ((Date.now() / 1000) % 30 > 24) {
    if (Date.now() > deadline) throw new Error("the clock did not move on");
    await new Promise((r) => setTimeout(r, 200));
  }
}
/** The code of `steps` steps from now (-1, 0, 1 are inside the server's window). */
export const code = (secret: string, steps = 0) => totpAt(secret, Date.now() + steps * 30_000);
