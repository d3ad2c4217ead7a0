/**
 * Meeting times (the CRM's calendar). A meeting is booked for a clock time in a chosen zone (the
 * client's, say), not the browser's: the picker's clock time goes to the server as is, with the
 * zone, and a meeting is said in its own zone — on the client page and in the invitation mail.
 */

/** The browser's own zone, the dialog's default. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** The zones to choose from, the browser's and UTC among them whatever the runtime lists. */
export function timeZoneOptions(current = browserTimeZone()): string[] {
  const listed = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set([current, "UTC", ...listed])].sort((a, b) => a.localeCompare(b));
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `2026-12-01T10:00`: the clock time a picker shows, as the meeting routes take it. */
export function wallTimeText(parts: {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}): string {
  return `${parts.year}-${pad(parts.month)}-${pad(parts.day)}T${pad(parts.hour)}:${pad(parts.minute)}`;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** "Tue 1 Dec 2026" in `timeZone`, built from parts: runtimes disagree on commas. */
function dayText(date: Date, timeZone: string): string {
  let f = dayFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
    });
    dayFormats.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}`;
}

/** "09:05" in `timeZone`. */
function timeText(date: Date, timeZone: string): string {
  let f = timeFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    timeFormats.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.hour}:${parts.minute}`;
}

/**
 * "Tue 1 Dec 2026, 10:00–10:45 (Europe/Paris)": a meeting's time in its own zone, as the
 * invitation mail and the client page say it. The zone is left out for a reader in it.
 *
 * @example
 * meetingWhen("2026-12-01T09:00:00Z", "2026-12-01T09:45:00Z", "Europe/Paris");
 * // "Tue 1 Dec 2026, 10:00–10:45 (Europe/Paris)"
 */
export function meetingWhen(
  startsAt: string | Date,
  endsAt: string | Date,
  timeZone: string,
  readerZone?: string,
): string {
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  const startDay = dayText(start, timeZone);
  const endDay = dayText(end, timeZone);
  const until = startDay === endDay ? timeText(end, timeZone) : `${endDay}, ${timeText(end, timeZone)}`;
  const zone = timeZone === readerZone ? "" : ` (${timeZone})`;
  return `${startDay}, ${timeText(start, timeZone)}–${until}${zone}`;
}
