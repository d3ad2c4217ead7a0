/**
 * Day-month-year dates (spec §5). The wire and the screens use `DD-MM-YYYY`; everything is
 * built in UTC so that a date never shifts by a day in a browser west or east of Greenwich.
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
