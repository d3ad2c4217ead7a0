/**
 * TOTP (RFC 6238) over HOTP (RFC 4226) with node:crypto: HMAC-SHA1, 30-second steps, six
 * digits, as every authenticator app reads an `otpauth://totp/` URI by default. Pure
 * functions: replay protection (a step accepted once) is the caller's, in the database.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now: a phone's clock a little off, a code typed as it turned. */
export const TOTP_WINDOW = 1;
/** 160 bits, the HMAC-SHA1 block the RFC recommends for a shared secret. */
export const TOTP_SECRET_BYTES = 20;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32, without padding (authenticator apps take it so). */
export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Reads base32 (any case, spaces and padding ignored); throws on another character. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, "").toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error("Not a base32 secret");
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new shared secret, base32. */
export const newTotpSecret = (): string => base32Encode(randomBytes(TOTP_SECRET_BYTES));

/** The time step of `ms` (Unix milliseconds). */
export const stepAt = (ms: number): number => Math.floor(ms / 1000 / TOTP_STEP_SECONDS);

/**
 * HOTP of `key` at `counter` (RFC 4226 §5.3, dynamic truncation), `digits` long.
 * `algorithm` is there for the RFC 6238 test vectors, which also use SHA-256 and SHA-512.
 */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS, algorithm = "sha1"): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The code of a base32 `secret` at `ms` (Unix milliseconds). */
export const totpAt = (secret: string, ms: number): string => hotp(base32Decode(secret), stepAt(ms));

/**
 * The step within ±TOTP_WINDOW of `now` whose code is `code`, or null. Every candidate is
 * compared (in constant time), so the answer's timing says nothing about which step matched.
 *
 * @example
 * const step = matchTotp(secret, "287082", Date.now()); // then refuse a step not after the last one used
 */
export function matchTotp(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secret);
  const given = Buffer.from(code);
  const current = stepAt(now);
  let matched: number | null = null;
  for (let delta = -TOTP_WINDOW; delta <= TOTP_WINDOW; delta++) {
    const step = current + delta;
    if (timingSafeEqual(Buffer.from(hotp(key, step)), given) && matched === null) matched = step;
  }
  return matched;
}

/**
 * The URI an authenticator app reads from the QR code. The label is `Atelier:<email>`, with
 * the issuer repeated as a parameter, as Google's key-URI format asks.
 */
export function otpauthUri(email: string, secret: string, issuer = "Atelier"): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(email)}`;
  const params = new URLSearchParams({
    secret,
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
