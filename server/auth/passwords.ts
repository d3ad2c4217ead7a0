/**
 * Passwords: argon2id hashing (OWASP parameters: 19 MiB, 2 passes) and the rules a new
 * password must meet beyond its length (checked by the request schemas).
 */
import { hash, verify } from "@node-rs/argon2";
import { badRequest } from "../http/errors";

const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

// A real hash to verify against when the account does not exist, so both paths cost the same.
let dummyHash: Promise<string> | null = null;

/** Verifies a password; with no stored hash it still spends the same time and answers false. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

export const COMMON_PASSWORD = "This password is too common and easy to guess. Choose another.";

// The list of zxcvbn-ts (about 49,000 leaked passwords, lower case, MIT), a data-only
// package that works offline. Loaded on first use and kept as a Set: a few MB, once.
let commonPasswords: Promise<ReadonlySet<string>> | null = null;

function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonPasswords ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set(dictionary["passwords-common"].map((p) => p.toLowerCase())),
  );
  return commonPasswords;
}

/** Whether a password is in the common-password list (compared case-insensitively). */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await loadCommonPasswords()).has(password.toLowerCase());
}

/** How many passwords the list holds (for tests and the docs). */
export async function commonPasswordCount(): Promise<number> {
  return (await loadCommonPasswords()).size;
}

/**
 * Refuses a new password a person should not use, as a per-field 400 on `field`.
 * Length is the request schema's job; this adds what a schema cannot know.
 *
 * @example
 * await assertAcceptablePassword(body.newPassword, "newPassword");
 */
export async function assertAcceptablePassword(password: string, field = "password"): Promise<void> {
  if (await isCommonPassword(password)) {
    throw badRequest(COMMON_PASSWORD, [{ field, message: COMMON_PASSWORD }]);
  }
}
