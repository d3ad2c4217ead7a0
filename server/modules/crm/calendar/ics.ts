/**
 * iCalendar (RFC 5545) text of one meeting, for the user's CalDAV calendar and for the
 * invitation mailed to the client (iTIP, RFC 5546: METHOD REQUEST and CANCEL). Pure: the same
 * event gives the same text, so tests can read it line by line.
 *
 * Times are UTC (`…Z`) for a meeting in UTC, else local times with the zone's TZID and a
 * VTIMEZONE built from the runtime's zone data around the meeting (RFC 5545 wants one for
 * every TZID used; clients that know the zone use their own).
 */
import { offsetChanges, offsetMinutes, wallTimeAt } from "./zoned-time";

export type IcsMethod = "REQUEST" | "CANCEL";

export interface IcsPerson {
  email: string;
  name?: string | null;
}

export interface IcsEvent {
  /** Stable for the meeting's whole life: the calendar and the invitation name it by this. */
  uid: string;
  /** Grows with each change the attendee is told about (0 when created, 1 when cancelled, …). */
  sequence: number;
  /** When this text was made. */
  stamp: Date;
  start: Date;
  end: Date;
  /** IANA zone of the meeting (`Europe/Paris`), or `UTC`. */
  timeZone: string;
  summary: string;
  description?: string | null;
  location?: string | null;
  organizer: IcsPerson;
  attendees: readonly IcsPerson[];
  status: "CONFIRMED" | "CANCELLED";
}

export interface IcsOptions {
  /** Set for a mailed invitation; a calendar object stored by CalDAV must not carry one (RFC 4791 §4.1). */
  method?: IcsMethod;
  /**
   * Attendees marked SCHEDULE-AGENT=CLIENT (RFC 6638): servers that schedule by themselves
   * (iCloud, Nextcloud) then leave the invitation to us instead of mailing a second one.
   */
  clientSchedules?: boolean;
}

export const PRODUCT_ID = "-//Atelier//CRM meetings//EN";

/** A TEXT value escaped (RFC 5545 §3.3.11): backslash, semicolon, comma, and line breaks as `\n`. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/**
 * A parameter value (a CN): quoted when it holds `:`, `;` or `,`. A double quote cannot appear in
 * a parameter at all, and control characters must not: both are dropped.
 */
export function paramValue(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: dropping control characters is the point.
  const clean = value.replace(/["\u0000-\u001f\u007f]/g, "");
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

/**
 * Folds a content line at 75 octets (RFC 5545 §3.1): CRLF and one space before each continuation,
 * never inside a UTF-8 character.
 */
export function foldLine(line: string): string {
  const bytes = Buffer.from(line, "utf8");
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75; // the first line holds 75 octets; each continuation, its space and 74
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Back off a UTF-8 continuation byte (10xxxxxx): a character is never cut in two.
    while (end < bytes.length && end > start && (bytes[end] & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString("utf8"));
    start = end;
    limit = 74;
  }
  return parts.join("\r\n ");
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `20261201T090000Z` */
export function utcStamp(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${pad(
    date.getUTCHours(),
  )}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`;
}

/** `20261201T100000`: what a clock in `timeZone` shows at `date`. */
export function localStamp(date: Date, timeZone: string): string {
  const w = wallTimeAt(date, timeZone);
  return `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}T${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`;
}

/** `+0100`, `-0530` */
export function offsetText(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

const isUtc = (timeZone: string) => timeZone.toUpperCase() === "UTC";

/** A date-time property in the meeting's zone: `DTSTART;TZID=Europe/Paris:20261201T100000` or `…:20261201T090000Z`. */
function timeProperty(name: string, date: Date, timeZone: string): string {
  return isUtc(timeZone)
    ? `${name}:${utcStamp(date)}`
    : `${name};TZID=${paramValue(timeZone)}:${localStamp(date, timeZone)}`;
}

/**
 * The VTIMEZONE of `timeZone` over the meeting (from a year before it to a year after): the
 * offset in force at the start, then each change as its own observance. DTSTART of an
 * observance is the local time of the change under the offset before it (RFC 5545 §3.6.5).
 */
export function vtimezone(timeZone: string, from: Date, to: Date): string[] {
  const YEAR = 366 * 24 * 3600 * 1000;
  const start = new Date(Date.UTC(new Date(from.getTime() - YEAR).getUTCFullYear(), 0, 1));
  const end = new Date(Date.UTC(new Date(to.getTime() + YEAR).getUTCFullYear(), 0, 1));
  const changes = offsetChanges(timeZone, start, end);
  const offsets = [offsetMinutes(start, timeZone), ...changes.map((c) => c.to)];
  // Daylight time is the larger offset of a zone that changes; a zone that does not is standard.
  const standard = Math.min(...offsets);
  const floating = (instant: Date, offset: number) =>
    utcStamp(new Date(instant.getTime() + offset * 60_000)).slice(0, -1);
  const observance = (at: Date, from: number, to: number) => {
    const kind = to > standard ? "DAYLIGHT" : "STANDARD";
    return [
      `BEGIN:${kind}`,
      `DTSTART:${floating(at, from)}`,
      `TZOFFSETFROM:${offsetText(from)}`,
      `TZOFFSETTO:${offsetText(to)}`,
      `END:${kind}`,
    ];
  };
  return [
    "BEGIN:VTIMEZONE",
    `TZID:${timeZone}`,
    ...observance(start, offsets[0], offsets[0]),
    ...changes.flatMap((c) => observance(c.at, c.from, c.to)),
    "END:VTIMEZONE",
  ];
}

const person = (p: IcsPerson) => `${p.name ? `;CN=${paramValue(p.name)}` : ""}:mailto:${p.email}`;

/**
 * The VCALENDAR text of a meeting, lines folded and ending in CRLF.
 *
 * @example
 * buildCalendar(event, { method: "REQUEST" }); // the invitation's text/calendar part
 * buildCalendar(event, { clientSchedules: true }); // the object PUT into the user's calendar
 */
export function buildCalendar(event: IcsEvent, options: IcsOptions = {}): string {
  const attendee = (p: IcsPerson) =>
    [
      "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT",
      event.status === "CANCELLED" ? "PARTSTAT=NEEDS-ACTION" : "PARTSTAT=NEEDS-ACTION;RSVP=TRUE",
      options.clientSchedules ? "SCHEDULE-AGENT=CLIENT" : null,
    ]
      .filter(Boolean)
      .join(";") + person(p);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:${PRODUCT_ID}`,
    "CALSCALE:GREGORIAN",
    ...(options.method ? [`METHOD:${options.method}`] : []),
    ...(isUtc(event.timeZone) ? [] : vtimezone(event.timeZone, event.start, event.end)),
    "BEGIN:VEVENT",
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utcStamp(event.stamp)}`,
    timeProperty("DTSTART", event.start, event.timeZone),
    timeProperty("DTEND", event.end, event.timeZone),
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    `STATUS:${event.status}`,
    "TRANSP:OPAQUE",
    `ORGANIZER${person(event.organizer)}`,
    ...event.attendees.map(attendee),
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}
