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

/**
 * Shortens text to fit `maxWidth` (in whatever unit `measure` answers, pixels in a table
 * cell), ending with the 3-character ellipsis when it had to cut. The longest prefix that
 * fits with the ellipsis is found by bisection, so a long text costs a few measurements.
 * Trailing spaces before the ellipsis are dropped ("Autumn..." not "Autumn ...").
 *
 * @example
 * const measure = (s: string) => s.length * 8;       // a monospace font, 8 px a character
 * truncateToWidth("Autumn catalogue", 80, measure);   // "Autumn..."
 * truncateToWidth("Short", 80, measure);              // "Short"
 */
export function truncateToWidth(text: string, maxWidth: number, measure: (text: string) => number): string {
  if (measure(text) <= maxWidth) return text;
  if (measure(ELLIPSIS) > maxWidth) return "";
  // Invariant: a prefix of `low` characters fits, one of `high` does not.
  let low = 0;
  let high = text.length;
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (measure(cut(text, mid).trimEnd() + ELLIPSIS) <= maxWidth) low = mid;
    else high = mid;
  }
  return cut(text, low).trimEnd() + ELLIPSIS;
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

/**
 * A count with its noun in the right number: `many` defaults to `one` + "s". The count is
 * written with thousands separators, as lists and reports show it.
 *
 * @example
 * plural(1, "catalogue");          // "1 catalogue"
 * plural(2, "catalogue");          // "2 catalogues"
 * plural(1200, "entry", "entries"); // "1,200 entries"
 */
export function plural(n: number, one: string, many: string = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/** Words that start with a vowel letter and a consonant sound ("a user", "a one-off"). */
const CONSONANT_SOUND = /^(uni|use|usu|uti|ura|eu|ewe|one\b|once\b)/i;
/** Words that start with a silent h ("an hour"). */
const SILENT_H = /^(hour|honest|honou?r|heir)/i;
/** Letters whose name starts with a vowel sound, for an acronym read letter by letter ("an SMS"). */
const VOWEL_LETTER_NAMES = new Set("AEFHILMNORSX");

/**
 * A word with its indefinite article, by the sound it starts with: "an" before a vowel sound
 * (an industry, an hour, an SMS), "a" before a consonant sound (a user, a URL). An acronym (two
 * capitals or more) is read letter by letter. Capitalised when `capital`.
 *
 * @example
 * withArticle("automation");      // "an automation"
 * withArticle("client", true);    // "A client"
 * withArticle("SMS template");    // "an SMS template"
 * withArticle("user");            // "a user"
 */
export function withArticle(word: string, capital = false): string {
  const acronym = /^[A-Z]{2,}\b/.test(word);
  const an = acronym
    ? VOWEL_LETTER_NAMES.has(word[0])
    : SILENT_H.test(word) || (/^[aeiou]/i.test(word) && !CONSONANT_SOUND.test(word));
  const article = an ? "an" : "a";
  return `${capital ? article[0].toUpperCase() + article.slice(1) : article} ${word}`;
}
