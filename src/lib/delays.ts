/**
 * When a wait ends: the delays of sequences and automations (issue 16 "wait (amount + unit)",
 * issue 17 "amount + unit (minutes, hours, days, weeks), or until a date-time in a time zone").
 *
 * Minutes and hours are elapsed time. Days and weeks are calendar time in a time zone: "wait
 * 1 day" from 09:00 ends at 09:00 the next day there, 23 or 25 hours later across a daylight
 * saving change. A wall-clock time a change skips (02:30 on a spring-forward night) moves
 * forward by the gap; one a change repeats (02:30 on a fall-back night) is its first occurrence
 * (what Temporal calls the "compatible" choice, and what calendars do).
 *
 * Pure and isomorphic (Intl only): the run engine computes with it, and a builder screen may
 * show when a wait would end.
 */

export const DELAY_UNITS = ["minutes", "hours", "days", "weeks"] as const;
export type DelayUnit = (typeof DELAY_UNITS)[number];

export interface Delay {
  amount: number;
  unit: DelayUnit;
}

/** A time of day on a day, as a clock on a wall shows it (month 1–12). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building one costs far more than using it. */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `timeZone` is an IANA zone name this runtime knows ("Asia/Kolkata", "UTC"). */
export function isTimeZone(timeZone: string): boolean {
  if (typeof timeZone !== "string" || !timeZone) return false;
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `timeZone` at `instant` (to the second). */
export function wallClockOf(instant: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

const utcOf = (w: WallClock) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** How far `timeZone` is ahead of UTC at `ms`, in ms (the instant's own seconds are dropped). */
function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return utcOf(wallClockOf(new Date(whole), timeZone)) - whole;
}

/**
 * The instant a wall clock in `timeZone` shows `wall` (fields past their range roll over, as
 * Date.UTC does: day 32 is the next month's first). A time skipped by a change moves forward by
 * the gap; a repeated one is its first occurrence.
 */
export function instantOfWallClock(wall: WallClock, timeZone: string): Date {
  const local = utcOf(wall);
  if (!Number.isFinite(local)) throw new RangeError("Invalid date-time");
  // The offsets a day either side cover any one change; try the instant each one gives.
  const before = offsetAt(local - DAY_MS, timeZone);
  const after = offsetAt(local + DAY_MS, timeZone);
  const matches = [local - before, local - after].filter((ms) => offsetAt(ms, timeZone) === local - ms);
  if (matches.length) return new Date(Math.min(...matches));
  // Skipped: read with the offset in force before the change, the clock shows it a gap later.
  return new Date(local - before);
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * Reads "YYYY-MM-DDTHH:mm" (seconds optional; a space may replace the T) without a zone: the
 * time an admin picked for "until". Null when it is not such a text or not a real date.
 */
export function parseLocalDateTime(text: string): WallClock | null {
  const m = typeof text === "string" ? LOCAL_DATE_TIME.exec(text.trim()) : null;
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0));
  const wall = { year, month, day, hour, minute, second };
  // Rejects 2025-02-30 and 24:00: the fields must survive a round trip unchanged.
  const back = new Date(utcOf(wall));
  const same =
    back.getUTCFullYear() === year &&
    back.getUTCMonth() + 1 === month &&
    back.getUTCDate() === day &&
    back.getUTCHours() === hour &&
    back.getUTCMinutes() === minute &&
    back.getUTCSeconds() === second;
  return same ? wall : null;
}

/** "Until" a local date-time in a time zone, as an instant. RangeError on bad input. */
export function untilInstant(localDateTime: string, timeZone: string): Date {
  const wall = parseLocalDateTime(localDateTime);
  if (!wall) throw new RangeError(`"${localDateTime}" is not a date and time (YYYY-MM-DDTHH:mm)`);
  if (!isTimeZone(timeZone)) throw new RangeError(`"${timeZone}" is not a time zone`);
  return instantOfWallClock(wall, timeZone);
}

/** Why `delay` cannot be used, in a person's words, or null when it can. */
export function delayProblem(delay: Partial<Delay>): string | null {
  if (!DELAY_UNITS.includes(delay.unit as DelayUnit)) return "Choose minutes, hours, days or weeks";
  const { amount } = delay;
  if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 0) {
    return "Enter a whole number of 0 or more";
  }
  if (amount > 100_000) return "Enter at most 100000";
  return null;
}

/**
 * When a wait of `delay` that starts at `from` ends. Days and weeks count on the calendar of
 * `timeZone` (UTC by default), so the wall-clock time is kept across daylight saving changes.
 *
 * @example
 * delayEnd(new Date("2025-03-29T09:00:00Z"), { amount: 1, unit: "days" }, "Europe/London")
 * // 2025-03-30T08:00:00Z: 09:00 in London again (BST began overnight), 23 hours later
 */
export function delayEnd(from: Date, delay: Delay, timeZone = "UTC"): Date {
  const problem = delayProblem(delay);
  if (problem) throw new RangeError(problem);
  if (delay.unit === "minutes") return new Date(from.getTime() + delay.amount * MINUTE_MS);
  if (delay.unit === "hours") return new Date(from.getTime() + delay.amount * HOUR_MS);
  if (!isTimeZone(timeZone)) throw new RangeError(`"${timeZone}" is not a time zone`);
  const days = delay.unit === "weeks" ? delay.amount * 7 : delay.amount;
  const wall = wallClockOf(from, timeZone);
  const end = instantOfWallClock({ ...wall, day: wall.day + days }, timeZone);
  // The wall clock drops milliseconds: put them back so a wait is never shorter than asked.
  return new Date(end.getTime() + (from.getTime() % 1000));
}
