/**
 * Wall-clock time in an IANA time zone, from the runtime's own zone data (Intl), so a meeting
 * booked for "10:00 in Europe/Paris" is 10:00 there whatever the server's zone and whatever
 * daylight saving does. Pure; no zone database of our own. The clock reading and its inverse
 * are the ones the run engine's waits use (src/lib/delays.ts); this adds what calendars need
 * (zone names as IANA spells them, offsets, the changes an ICS file lists).
 */
import { instantOfWallClock, isTimeZone, type WallClock, wallClockOf } from "../../../../src/lib/delays";

/** The zone's name as IANA spells it (`europe/paris` → `Europe/Paris`), or undefined when unknown. */
export function normaliseTimeZone(name: string): string | undefined {
  if (!name || name.length > 64 || !isTimeZone(name)) return undefined;
  if (name.toUpperCase() === "UTC" || name.toUpperCase() === "ETC/UTC") return "UTC";
  const lower = name.toLowerCase();
  // Names Intl accepts but does not list (Asia/Kolkata where ICU lists Asia/Calcutta) stay as given.
  return Intl.supportedValuesOf("timeZone").find((z) => z.toLowerCase() === lower) ?? name;
}

/** A clock's reading (month 1–12): the shared one of src/lib/delays.ts. */
export type WallTime = WallClock;

/** What a clock in `timeZone` shows at `instant`. */
export const wallTimeAt = wallClockOf;

const asUtcMs = (w: WallTime) => {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime();
};

/** The zone's offset from UTC at `instant`, in minutes (Paris in summer: 120). */
export function offsetMinutes(instant: Date, timeZone: string): number {
  const whole = new Date(Math.floor(instant.getTime() / 1000) * 1000);
  return Math.round((asUtcMs(wallTimeAt(whole, timeZone)) - whole.getTime()) / 60_000);
}

const DAY_MS = 24 * 3600 * 1000;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Whether `text` is a wall-clock date-time without an offset (`2026-12-01T10:00[:00]`). */
export function isLocalDateTime(text: string): boolean {
  return LOCAL.test(text);
}

/**
 * The instant at which a clock in `timeZone` shows `local` (`2026-12-01T10:00`). A time skipped
 * by a daylight-saving jump lands after the jump (02:30 on the spring night → 03:30); a time
 * shown twice (the autumn night) is its first showing.
 *
 * @example
 * zonedToInstant("2026-07-01T10:00", "Europe/Paris").toISOString(); // "2026-07-01T08:00:00.000Z"
 */
export function zonedToInstant(local: string, timeZone: string): Date {
  const m = LOCAL.exec(local);
  if (!m) throw new RangeError(`Not a local date-time: ${local}`);
  const wall: WallTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? 0),
  };
  return instantOfWallClock(wall, timeZone);
}

export interface OffsetChange {
  /** The instant of the change. */
  at: Date;
  from: number;
  to: number;
}

/** The zone's offset changes between two instants (daylight saving, and any law change). */
export function offsetChanges(timeZone: string, from: Date, to: Date): OffsetChange[] {
  const changes: OffsetChange[] = [];
  let t = Math.floor(from.getTime() / 60_000) * 60_000;
  let offset = offsetMinutes(new Date(t), timeZone);
  while (t < to.getTime()) {
    const next = Math.min(t + DAY_MS, to.getTime());
    const nextOffset = offsetMinutes(new Date(next), timeZone);
    if (nextOffset !== offset) {
      // Narrow down to the minute: zones change on the minute.
      let lo = t;
      let hi = next;
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
        if (offsetMinutes(new Date(mid), timeZone) === offset) lo = mid;
        else hi = mid;
      }
      changes.push({ at: new Date(hi), from: offset, to: nextOffset });
      offset = nextOffset;
    }
    t = next;
  }
  return changes;
}
