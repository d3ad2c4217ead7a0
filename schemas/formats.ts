/**
 * The string formats whose meaning the engine sets itself, because its columns decide what a
 * value may be (ARCHITECTURE.md §3): ajv-formats follows RFC 3339, which knows nothing of what
 * PostgreSQL can store. Shared by the server's Ajv and the forms' (validator-config.ts). Pure.
 *
 * - `date`: a calendar day, `YYYY-MM-DD`, years 0001–9999 (a `date` column has no year 0).
 * - `date-time`: an instant, `YYYY-MM-DDTHH:MM:SS[.fff]` with `Z` or an offset: a
 *   `timestamptz` column stores the instant, so a time without a zone would be read in the
 *   database's zone, which no client can see. The instant's UTC year is 0001–9999.
 * - `time`: a time of day, `HH:MM` or `HH:MM:SS`, 24-hour, WITHOUT a zone: a `time` column has
 *   none and would silently drop an offset. Records answer `HH:MM:SS`.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-](\d{2}):(\d{2}))$/i;
const TIME_OF_DAY = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A real calendar day written `YYYY-MM-DD`.
 *
 * @example
 * isDay("2024-02-29"); // true
 * isDay("2023-02-29"); // false (not a leap year)
 */
export function isDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  if (year < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * An instant: a real day, a time and a zone (`Z` or `±HH:MM`), within the years 1–9999 in UTC.
 *
 * @example
 * isInstant("2024-03-05T14:30:00Z");      // true
 * isInstant("2024-03-05T14:30:00+05:30"); // true
 * isInstant("2024-03-05T14:30:00");       // false (which zone?)
 */
export function isInstant(text: string): boolean {
  const match = INSTANT.exec(text);
  if (!match || !isDay(match[1])) return false;
  const [hour, minute, second] = [match[2], match[3], match[4]].map(Number);
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (match[7] !== undefined && (Number(match[7]) > 23 || Number(match[8]) > 59)) return false;
  const time = Date.parse(text.toUpperCase());
  if (Number.isNaN(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/**
 * A time of day without a zone, `HH:MM` or `HH:MM:SS`.
 *
 * @example
 * isTimeOfDay("09:30");    // true
 * isTimeOfDay("23:59:59"); // true
 * isTimeOfDay("24:00");    // false
 * isTimeOfDay("09:30Z");   // false (a time column keeps no zone)
 */
export function isTimeOfDay(text: string): boolean {
  const match = TIME_OF_DAY.exec(text);
  if (!match) return false;
  return Number(match[1]) <= 23 && Number(match[2]) <= 59 && Number(match[3] ?? 0) <= 59;
}

/** The formats above, by name, as Ajv's `addFormat` takes them (they replace ajv-formats'). */
export const ENGINE_FORMATS = {
  date: isDay,
  "date-time": isInstant,
  time: isTimeOfDay,
} as const satisfies Record<string, (text: string) => boolean>;
