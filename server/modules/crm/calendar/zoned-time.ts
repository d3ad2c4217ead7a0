/**
 * Wall-clock time in an IANA time zone, from the runtime's own zone data (Intl), so a meeting
 * booked for "10:00 in Europe/Paris" is 10:00 there whatever the server's zone and whatever
 * daylight saving does. Pure; no zone database of our own.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's name as IANA spells it (`europe/paris` → `Europe/Paris`), or undefined when unknown. */
export function normaliseTimeZone(name: string): string | undefined {
  if (!name || name.length > 64) return undefined;
  try {
    formatterOf(name);
  } catch {
    return undefined;
  }
  if (name.toUpperCase() === "UTC" || name.toUpperCase() === "ETC/UTC") return "UTC";
  const lower = name.toLowerCase();
  // Names Intl accepts but does not list (Asia/Kolkata where ICU lists Asia/Calcutta) stay as given.
  return Intl.supportedValuesOf("timeZone").find((z) => z.toLowerCase() === lower) ?? name;
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** What a clock in `timeZone` shows at `instant`. */
export function wallTimeAt(instant: Date, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(timeZone).formatToParts(instant)) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
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
  const target = asUtcMs(wall);
  // The offsets a day either side: any change near `local` lies between them.
  const before = offsetMinutes(new Date(target - DAY_MS), timeZone);
  const after = offsetMinutes(new Date(target + DAY_MS), timeZone);
  const shows = [target - before * 60_000, target - after * 60_000]
    .filter((t) => asUtcMs(wallTimeAt(new Date(t), timeZone)) === target)
    .sort((a, b) => a - b);
  // None: a skipped time; with the offset before the jump, it lands as far past the jump.
  return new Date(shows[0] ?? target - before * 60_000);
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
