/**
 * Secrets kept at rest (a user's calendar app password, an online store's API token): sealed
 * with AES-256-GCM before they reach the database, opened only when the server needs to use
 * them, and never sent back to a browser.
 *
 * The key comes from `ENCRYPTION_KEY` (32+ characters). Unset, one is generated on first start
 * and stored in the database, like the JWT secret, so every instance shares it; a database dump
 * then carries the key beside what it locks, which is why production should set the variable.
 * Setting it later keeps the generated key for opening what it sealed (see `loadSecretBox`).
 *
 * A sealed value reads `v1.<key id>.<iv>.<ciphertext and tag>` (base64url parts): `v1` names the
 * scheme (AES-256-GCM, 96-bit IV, 128-bit tag, key derived by HKDF-SHA256), the key id says which
 * key sealed it, so keys can rotate: seal with the newest, open with any still configured.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../db";

export class SecretBoxError extends Error {}

export interface SecretBox {
  /**
   * Seals `plain`. `context` names where the value is kept (`"<table>.<column>:<row id>"`): it is
   * authenticated with the value, so a sealed value copied into another row does not open there.
   */
  seal(plain: string, context: string): string;
  /** Opens a value sealed for `context`; throws SecretBoxError if it cannot (wrong key, tampered). */
  open(sealed: string, context: string): string;
  /** Whether `sealed` was sealed with another key than the current one (to seal it again). */
  isStale(sealed: string): boolean;
}

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

interface Key {
  id: string;
  bytes: Buffer;
}

/** A 256-bit key from a key text of any length (HKDF: the text need not be random bytes). */
function deriveKey(text: string): Key {
  const bytes = Buffer.from(hkdfSync("sha256", text, "atelier secret-box", `${VERSION} aes-256-gcm`, 32));
  // The id is a hash of the derived key, not of the text: short, and says nothing usable.
  const id = createHash("sha256").update(bytes).digest("base64url").slice(0, 8);
  return { id, bytes };
}

/**
 * A box over `keys`: the first seals, every one opens what it sealed.
 *
 * @example
 * const box = createSecretBox([process.env.ENCRYPTION_KEY]);
 * const sealed = box.seal("app-password", `crm_calendar_connections.password:${userId}`);
 * box.open(sealed, `crm_calendar_connections.password:${userId}`); // "app-password"
 */
export function createSecretBox(keys: readonly string[]): SecretBox {
  if (!keys.length) throw new SecretBoxError("A secret box needs at least one key");
  const derived = keys.map(deriveKey);
  const current = derived[0];
  const byId = new Map(derived.map((k) => [k.id, k]));

  return {
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current.bytes, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, "utf8"));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return [VERSION, current.id, iv.toString("base64url"), body.toString("base64url")].join(".");
    },
    open(sealed, context) {
      const [version, keyId, iv, body, ...rest] = sealed.split(".");
      if (version !== VERSION || !keyId || !iv || !body || rest.length)
        throw new SecretBoxError("This is not a value sealed by this server");
      const key = byId.get(keyId);
      if (!key) throw new SecretBoxError("This value was sealed with a key this server does not have");
      const bytes = Buffer.from(body, "base64url");
      if (bytes.length < TAG_BYTES) throw new SecretBoxError("This sealed value is cut short");
      try {
        const decipher = createDecipheriv("aes-256-gcm", key.bytes, Buffer.from(iv, "base64url"), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        return Buffer.concat([
          decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new SecretBoxError("This sealed value was altered, or belongs elsewhere");
      }
    },
    isStale(sealed) {
      return sealed.split(".")[1] !== current.id;
    },
  };
}

const STORED_KEY = "encryption_key";

/**
 * The server's box: `ENCRYPTION_KEY` when set, else a key generated on first start and kept in
 * `app_settings` (one for every instance, as loadJwtSecret does). A stored key that is no longer
 * the current one (the variable was set later) still opens what it sealed.
 */
export async function loadSecretBox(db: Kysely<Database>, configured: string | null): Promise<SecretBox> {
  if (!configured) {
    await db
      .insertInto("app_settings")
      .values({ key: STORED_KEY, value: randomBytes(32).toString("base64url") })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
  }
  const stored = await db
    .selectFrom("app_settings")
    .select("value")
    .where("key", "=", STORED_KEY)
    .executeTakeFirst();
  const keys = [configured ?? stored?.value, configured && stored ? stored.value : undefined];
  return createSecretBox(keys.filter((k): k is string => Boolean(k)));
}
