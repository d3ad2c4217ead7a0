/**
 * The date field is a text input read day-month-year (spec §5, `parseDmy`). Phones show a digit
 * keypad for it (`inputmode="numeric"`), and some keypads have no dash: what a person can type
 * there is tidied into `D-M-YYYY` before it is checked.
 */

/**
 * A typed date with its separators made dashes, and eight bare digits read as `DDMMYYYY`.
 * Anything else is returned trimmed, for the check to say what is wrong with it.
 *
 * @example
 * normalizeDmy("31122025");   // "31-12-2025"
 * normalizeDmy("5/3/2024");   // "5-3-2024"
 * normalizeDmy(" 5.3.2024 "); // "5-3-2024"
 */
export function normalizeDmy(text: string): string {
  const trimmed = text.trim();
  const digits = /^(\d{2})(\d{2})(\d{4})$/.exec(trimmed);
  if (digits) return `${digits[1]}-${digits[2]}-${digits[3]}`;
  const parts = /^(\d{1,2})\s*[-/.\s]\s*(\d{1,2})\s*[-/.\s]\s*(\d{1,4})$/.exec(trimmed);
  return parts ? `${parts[1]}-${parts[2]}-${parts[3]}` : trimmed;
}
