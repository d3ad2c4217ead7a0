/**
 * Dates between the API and antd's pickers, in the one display format of the generated screens
 * (src/lib/dates.ts): a day `DD-MM-YYYY`, an instant `DD-MM-YYYY HH:mm` in local time, a time
 * of day `HH:mm`. The API carries ISO text: `YYYY-MM-DD`, ISO instants in UTC, `HH:MM:SS`. Pure.
 */
import dayjs, { type Dayjs } from "dayjs";
import { parseIsoDay } from "../../lib/dates";

/** How a day is shown (the list, the show page and the form's picker): dayjs tokens. */
export const DAY_FORMAT = "DD-MM-YYYY";
/** How an instant is shown, in local time. */
export const DAY_TIME_FORMAT = "DD-MM-YYYY HH:mm";
/** How a time of day is shown. */
export const TIME_FORMAT = "HH:mm";

/**
 * What a day picker reads from the keyboard (spec §5, as parseDmy reads it): day, month and
 * year split on dashes, a single-digit day or month accepted, real days only (the pickers
 * parse strictly). The first is the display format.
 */
export const DAY_INPUT_FORMATS = [DAY_FORMAT, "D-M-YYYY", "DD-M-YYYY", "D-MM-YYYY"];
/** A day as above, a space, then the time (`5-3-2024 9:30`). */
export const DAY_TIME_INPUT_FORMATS = DAY_INPUT_FORMATS.flatMap((day) => [`${day} HH:mm`, `${day} H:mm`]);
/** A time of day from the keyboard: `09:30`, `9:30`, or with seconds. */
export const TIME_INPUT_FORMATS = [TIME_FORMAT, "H:mm", "HH:mm:ss"];

/** A local Dayjs at midnight of a calendar day (years below 100 stay there, unlike `new Date(y, …)`). */
function localDay(year: number, monthIndex: number, day: number): Dayjs {
  const date = new Date(2000, 0, 1);
  date.setFullYear(year, monthIndex, day);
  date.setHours(0, 0, 0, 0);
  return dayjs(date);
}

/**
 * The picker's value of an API day (`2024-03-05` → local midnight of 5 March, so the picker
 * shows that day in any zone); null when empty or not a day.
 */
export function dayFromWire(value: unknown): Dayjs | null {
  const day = typeof value === "string" ? parseIsoDay(value) : null;
  return day ? localDay(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()) : null;
}

/** The API's text of the day a picker holds: its local calendar day, `YYYY-MM-DD`. */
export function dayToWire(value: Dayjs): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(value.year(), 4)}-${pad(value.month() + 1)}-${pad(value.date())}`;
}

/** The picker's value of an API instant (shown in local time); null when empty or not a date. */
export function instantFromWire(value: unknown): Dayjs | null {
  if (typeof value !== "string" || !value) return null;
  const instant = dayjs(value);
  return instant.isValid() ? instant : null;
}

/** The API's text of the instant a picker holds: ISO in UTC, to the minute the picker shows. */
export function instantToWire(value: Dayjs): string {
  return value.second(0).millisecond(0).toISOString();
}

const TIME_OF_DAY = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The picker's value of an API time of day (`09:30:00`), on today's date; null otherwise. */
export function timeFromWire(value: unknown): Dayjs | null {
  const match = typeof value === "string" ? TIME_OF_DAY.exec(value) : null;
  if (!match) return null;
  return dayjs()
    .startOf("day")
    .hour(Number(match[1]))
    .minute(Number(match[2]))
    .second(Number(match[3] ?? 0));
}

/** The API's text of the time a picker holds, `HH:MM:SS`. */
export function timeToWire(value: Dayjs): string {
  return value.format("HH:mm:ss");
}
