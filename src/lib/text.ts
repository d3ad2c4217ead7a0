/**
 * Text helpers (spec §9: a 3-character ellipsis; random ids of length 8 by default).
 */

/** Three full stops, not the single "…" character: the spec counts it as 3 characters. */
export const ELLIPSIS = "...";

/** Default length of {@link randomId}. */
export const RANDOM_ID_LENGTH = 8;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
// Bytes at or above this bound are redrawn, so that every character is equally likely
// (256 is not a multiple of 62).
const UNBIASED_BYTE_LIMIT = 256 - (256 % ALPHABET.length);

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * Shortens text to at most `max` characters, the ellipsis included. When `max` leaves no
 * room for the ellipsis (3 or fewer), the text is cut without one.
 *
 * @example
 * truncate("Autumn catalogue", 10); // "Autumn ..."
 * truncate("Short", 10);            // "Short"
 */
export function truncate(text: string, max: number): string {
  const limit = Math.max(0, Math.floor(max));
  if (text.length <= limit) return text;
  if (limit <= ELLIPSIS.length) return cut(text, limit);
  return cut(text, limit - ELLIPSIS.length) + ELLIPSIS;
}

/** Cuts at `length` UTF-16 units without leaving half of an emoji behind. */
function cut(text: string, length: number): string {
  const end = length > 0 && isHighSurrogate(text.charCodeAt(length - 1)) ? length - 1 : length;
  return text.slice(0, end);
}

/**
 * A random alphanumeric id from the platform's cryptographic generator.
 *
 * @example
 * randomId();   // "aZ3kP9qT"
 * randomId(12); // "Q8mN2xLr0vBw"
 */
export function randomId(length: number = RANDOM_ID_LENGTH): string {
  let id = "";
  while (id.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < UNBIASED_BYTE_LIMIT && id.length < length) id += ALPHABET[byte % ALPHABET.length];
    }
  }
  return id;
}
