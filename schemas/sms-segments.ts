/**
 * How many SMS a text costs (issue 16, spec §3 `smsModal`): the SMS modal's live counter and the
 * server's stored count come from this one function.
 *
 * A text that uses only the GSM 03.38 alphabet travels as GSM-7: 160 septets in one SMS, or 153
 * per part once it is split (each part gives 7 septets to the header that joins them again).
 * Characters of the extension table (`^ { } [ ] ~ \ | €` and form feed) cost two septets (escape
 * + character). One character outside the alphabet (an emoji, a rupee sign, Devanagari, curly
 * quotes) sends the whole text as UCS-2: 70 16-bit units in one SMS, 67 per part, and a
 * character beyond the Basic Multilingual Plane (most emoji) takes two units.
 *
 * Parts are filled the way phones and providers fill them: an escape pair or a surrogate pair
 * is never cut between two parts, so a part may end a unit short.
 */

export type SmsEncoding = "GSM-7" | "UCS-2";

export interface SmsCount {
  encoding: SmsEncoding;
  /** Characters as a person counts them (code points). */
  characters: number;
  /** Septets (GSM-7) or 16-bit units (UCS-2) the text takes. */
  units: number;
  /** SMS parts the text is sent as (0 for an empty text). */
  segments: number;
  /** Units one part holds at this length: 160/70 for a single SMS, 153/67 once split. */
  perSegment: number;
  /** Units left in the last part before another one starts. */
  remaining: number;
}

/** The GSM 03.38 basic alphabet (the escape code 0x1B itself is left out: it is not a character). */
const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
  "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/** The extension table reached through the escape code: two septets each. */
const GSM_EXTENSION = "\f^{}\\[~]|€";

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

/** Units per part for one SMS, and for each part of a split one. */
export const SMS_LIMITS: Readonly<Record<SmsEncoding, { single: number; multi: number }>> = {
  "GSM-7": { single: 160, multi: 153 },
  "UCS-2": { single: 70, multi: 67 },
};

/** Whether the whole text can travel as GSM-7. */
export function isGsm7(text: string): boolean {
  for (const ch of text) if (!BASIC.has(ch) && !EXTENSION.has(ch)) return false;
  return true;
}

/** What one character costs in its encoding's units. */
function costOf(ch: string, encoding: SmsEncoding): number {
  if (encoding === "GSM-7") return EXTENSION.has(ch) ? 2 : 1;
  return ch.length; // a surrogate pair is two UTF-16 units
}

/**
 * Counts a text's characters, units and SMS parts.
 *
 * @example
 * countSms("Hello").segments;          // 1 (GSM-7)
 * countSms("x".repeat(161)).segments;  // 2 (153 + 8)
 * countSms("Price ₹500").encoding;     // "UCS-2"
 */
export function countSms(text: string): SmsCount {
  const encoding: SmsEncoding = isGsm7(text) ? "GSM-7" : "UCS-2";
  const limits = SMS_LIMITS[encoding];
  const chars = Array.from(text);
  let units = 0;
  for (const ch of chars) units += costOf(ch, encoding);
  if (units === 0) {
    return {
      encoding,
      characters: 0,
      units: 0,
      segments: 0,
      perSegment: limits.single,
      remaining: limits.single,
    };
  }
  if (units <= limits.single) {
    return {
      encoding,
      characters: chars.length,
      units,
      segments: 1,
      perSegment: limits.single,
      remaining: limits.single - units,
    };
  }
  // Split: fill parts greedily, never cutting a character's units in two.
  let segments = 1;
  let used = 0;
  for (const ch of chars) {
    const cost = costOf(ch, encoding);
    if (used + cost > limits.multi) {
      segments++;
      used = 0;
    }
    used += cost;
  }
  return {
    encoding,
    characters: chars.length,
    units,
    segments,
    perSegment: limits.multi,
    remaining: limits.multi - used,
  };
}

/** The counter's words: "12 characters · 1 segment · GSM-7" (Unicode for UCS-2). */
export function smsCountLabel(count: SmsCount): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return [
    plural(count.characters, "character"),
    plural(count.segments, "segment"),
    count.encoding === "GSM-7" ? "GSM-7" : "Unicode",
  ].join(" · ");
}
