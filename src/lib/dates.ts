/**
 * Day-month-year dates (spec §5). The screens show and read `DD-MM-YYYY` (an instant as
 * `DD-MM-YYYY HH:mm` in local time, a time of day as `HH:mm`); the resource API carries ISO
 * text (`YYYY-MM-DD`). Days are built in UTC so that a date never shifts by a day in a
 * browser west or east of Greenwich.
 */

const DAY_OR_MONTH = /^\d{1,2}$/;
const YEAR = /^\d{1,4}$/;

/**
 * Reads a `D-M-YYYY` string. A single-digit day or month is accepted; a missing or zero
 * part, or a date that does not exist, gives `null`.
 *
 * @example
 * parseDmy("5-3-2024");   // 2024-03-05T00:00:00.000Z
 * parseDmy("31-02-2024"); // null (no 31 February)
 * parseDmy("00-03-2024"); // null
 */
export function parseDmy(input: string | null | undefined): Date | null {
  if (typeof input !== "string") return null;
  const parts = input.trim().split("-");
  if (parts.length !== 3) return null;
  const [dayText, monthText, yearText] = parts.map((part) => part.trim());
  if (!DAY_OR_MONTH.test(dayText) || !DAY_OR_MONTH.test(monthText) || !YEAR.test(yearText)) return null;

  const day = Number(dayText);
  const month = Number(monthText);
  const year = Number(yearText);
  if (day === 0 || month === 0 || year === 0) return null;

  const date = new Date(Date.UTC(2000, month - 1, day));
  // Date.UTC maps years 0–99 to 1900–1999; setting the full year keeps "5-3-0099" in year 99.
  date.setUTCFullYear(year, month - 1, day);
  // Date.UTC rolls 31-02 over to 02-03; a real date survives the round trip unchanged.
  const isRealDate =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return isRealDate ? date : null;
}

/**
 * Writes a date as `DD-MM-YYYY` in UTC, the inverse of {@link parseDmy}.
 *
 * @example
 * formatDmy(new Date(Date.UTC(2024, 2, 5))); // "05-03-2024"
 */
export function formatDmy(date: Date): string {
  const day = String(date.getUTCDate()).padStart(2, "0");
  const month = String(date.getUTCMonth() + 1).padStart(2, "0");
  const year = String(date.getUTCFullYear()).padStart(4, "0");
  return `${day}-${month}-${year}`;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * Reads the calendar day of an ISO `YYYY-MM-DD` text (the API's `date` fields) as a UTC
 * midnight, like {@link parseDmy}; `null` for anything else or a day that does not exist.
 *
 * @example
 * parseIsoDay("2024-03-05"); // 2024-03-05T00:00:00.000Z
 * parseIsoDay("2024-02-30"); // null
 */
export function parseIsoDay(input: string | null | undefined): Date | null {
  const match = typeof input === "string" ? ISO_DAY.exec(input.trim()) : null;
  return match ? parseDmy(`${match[3]}-${match[2]}-${match[1]}`) : null;
}

/**
 * A calendar day as it is shown everywhere: `DD-MM-YYYY`. Text that is not a day is returned
 * unchanged, so a bad value is seen rather than hidden.
 *
 * @example
 * formatIsoDay("2024-03-05"); // "05-03-2024"
 */
export function formatIsoDay(input: string): string {
  const day = parseIsoDay(input);
  return day ? formatDmy(day) : input;
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * An instant as it is shown everywhere: `DD-MM-YYYY HH:mm` in the reader's local time (an
 * instant has no day of its own; a `date`, which has, goes through {@link formatIsoDay}).
 *
 * @example
 * formatDmyTime(new Date(2024, 2, 5, 14, 30)); // "05-03-2024 14:30"
 */
export function formatDmyTime(date: Date): string {
  const day = `${pad(date.getDate())}-${pad(date.getMonth() + 1)}-${String(date.getFullYear()).padStart(4, "0")}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A time of day (`HH:MM:SS` from the API) as it is shown everywhere: `HH:mm`.
 *
 * @example
 * formatTimeOfDay("09:05:00"); // "09:05"
 */
export function formatTimeOfDay(input: string): string {
  return /^\d{2}:\d{2}/.test(input) ? input.slice(0, 5) : input;
}

/**
 * A database time (a Date, or its text) as the ISO instant an API answers; null stays null.
 *
 * @example
 * isoOrNull(new Date(0)); // "1970-01-01T00:00:00.000Z"
 */
export const isoOrNull = (v: Date | string | null): string | null =>
  v === null ? null : new Date(v).toISOString();
