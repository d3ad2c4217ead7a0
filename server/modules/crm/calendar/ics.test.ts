import { describe, expect, it } from "vitest";
import {
  buildCalendar,
  escapeText,
  foldLine,
  type IcsEvent,
  localStamp,
  paramValue,
  utcStamp,
  vtimezone,
} from "./ics";
import { normaliseTimeZone, offsetChanges, zonedToInstant } from "./zoned-time";

const unfold = (text: string) => text.replace(/\r\n /g, "");

const EVENT: IcsEvent = {
  uid: "4f1c2c1e-0000-4000-8000-000000000001@atelier.example.test",
  sequence: 0,
  stamp: new Date("2026-11-20T08:30:00Z"),
  start: new Date("2026-12-01T09:00:00Z"),
  end: new Date("2026-12-01T09:45:00Z"),
  timeZone: "Europe/Paris",
  summary: "Intro call; pricing, next steps",
  description: "Line one\nLine two \\ done",
  location: "Room 4, Main St",
  organizer: { email: "owner@example.com", name: "Olivia Owner" },
  attendees: [{ email: "asha@example.com", name: "Asha: Patel, Ltd" }],
  status: "CONFIRMED",
};

describe("escaping", () => {
  it("escapes backslash, semicolon, comma and line breaks in text", () => {
    expect(escapeText("a\\b;c,d\r\ne\nf")).toBe("a\\\\b\\;c\\,d\\ne\\nf");
  });
  it("quotes a parameter with : ; or , and drops double quotes and control characters", () => {
    expect(paramValue("Asha Patel")).toBe("Asha Patel");
    expect(paramValue('Asha "AP": Patel\n')).toBe('"Asha AP: Patel"');
  });
});

describe("foldLine", () => {
  it("leaves a line of 75 octets alone and folds longer ones with CRLF and a space", () => {
    expect(foldLine("x".repeat(75))).toBe("x".repeat(75));
    const folded = foldLine(`SUMMARY:${"y".repeat(200)}`);
    const lines = folded.split("\r\n");
    expect(lines.every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    expect(lines.slice(1).every((l) => l.startsWith(" "))).toBe(true);
    expect(unfold(folded)).toBe(`SUMMARY:${"y".repeat(200)}`);
  });
  it("never cuts a UTF-8 character in two", () => {
    const line = `SUMMARY:${"é€😀".repeat(40)}`;
    const lines = foldLine(line).split("\r\n");
    expect(lines.every((l) => Buffer.byteLength(l) <= 75 && !l.includes("\uFFFD"))).toBe(true);
    expect(unfold(foldLine(line))).toBe(line);
  });
});

describe("times", () => {
  it("writes UTC stamps and local wall times", () => {
    expect(utcStamp(new Date("2026-03-05T07:08:09.500Z"))).toBe("20260305T070809Z");
    expect(localStamp(new Date("2026-12-01T09:00:00Z"), "Europe/Paris")).toBe("20261201T100000");
    expect(localStamp(new Date("2026-12-01T09:00:00Z"), "Asia/Kolkata")).toBe("20261201T143000");
  });

  it("turns a wall time in a zone into the instant, through daylight saving", () => {
    expect(zonedToInstant("2026-07-01T10:00", "Europe/Paris").toISOString()).toBe("2026-07-01T08:00:00.000Z");
    expect(zonedToInstant("2026-12-01T10:00:00", "Europe/Paris").toISOString()).toBe(
      "2026-12-01T09:00:00.000Z",
    );
    expect(zonedToInstant("2026-12-01T10:00", "Asia/Kolkata").toISOString()).toBe("2026-12-01T04:30:00.000Z");
    expect(zonedToInstant("2026-12-01T10:00", "UTC").toISOString()).toBe("2026-12-01T10:00:00.000Z");
    // Skipped on the spring night: lands after the jump. Shown twice in autumn: the first.
    expect(zonedToInstant("2026-03-29T02:30", "Europe/Paris").toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(zonedToInstant("2026-10-25T02:30", "Europe/Paris").toISOString()).toBe("2026-10-25T00:30:00.000Z");
  });

  it("finds a zone's offset changes to the minute", () => {
    const changes = offsetChanges("Europe/Paris", new Date("2026-01-01Z"), new Date("2027-01-01Z"));
    expect(changes.map((c) => [c.at.toISOString(), c.from, c.to])).toEqual([
      ["2026-03-29T01:00:00.000Z", 60, 120],
      ["2026-10-25T01:00:00.000Z", 120, 60],
    ]);
    expect(offsetChanges("Asia/Kolkata", new Date("2026-01-01Z"), new Date("2027-01-01Z"))).toEqual([]);
  });

  it("knows zone names whatever their case, and refuses unknown ones", () => {
    expect(normaliseTimeZone("europe/paris")).toBe("Europe/Paris");
    expect(normaliseTimeZone("utc")).toBe("UTC");
    expect(normaliseTimeZone("Asia/Kolkata")).toBe("Asia/Kolkata");
    expect(normaliseTimeZone("Mars/Olympus")).toBeUndefined();
  });
});

describe("buildCalendar", () => {
  it("makes an invitation: METHOD, UID, DTSTAMP, zoned times with their VTIMEZONE, organizer and attendee", () => {
    const text = buildCalendar(EVENT, { method: "REQUEST" });
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.split("\r\n").every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    const lines = unfold(text).split("\r\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "METHOD:REQUEST",
        "BEGIN:VTIMEZONE",
        "TZID:Europe/Paris",
        `UID:${EVENT.uid}`,
        "SEQUENCE:0",
        "DTSTAMP:20261120T083000Z",
        "DTSTART;TZID=Europe/Paris:20261201T100000",
        "DTEND;TZID=Europe/Paris:20261201T104500",
        "SUMMARY:Intro call\\; pricing\\, next steps",
        "DESCRIPTION:Line one\\nLine two \\\\ done",
        "LOCATION:Room 4\\, Main St",
        "STATUS:CONFIRMED",
        "ORGANIZER;CN=Olivia Owner:mailto:owner@example.com",
        'ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN="Asha: Patel, Ltd":mailto:asha@example.com',
      ]),
    );
    // The VTIMEZONE comes before the event, and its observances say Paris's changes.
    expect(lines.indexOf("BEGIN:VTIMEZONE")).toBeLessThan(lines.indexOf("BEGIN:VEVENT"));
    expect(lines).toContain("DTSTART:20261025T030000");
  });

  it("stores a calendar object without METHOD, attendees left to us (SCHEDULE-AGENT=CLIENT)", () => {
    const lines = unfold(buildCalendar(EVENT, { clientSchedules: true })).split("\r\n");
    expect(lines.some((l) => l.startsWith("METHOD"))).toBe(false);
    expect(lines.find((l) => l.startsWith("ATTENDEE"))).toContain("SCHEDULE-AGENT=CLIENT");
  });

  it("writes a meeting in UTC with Z times and no VTIMEZONE; a cancellation says so", () => {
    const text = unfold(
      buildCalendar({ ...EVENT, timeZone: "UTC", sequence: 1, status: "CANCELLED" }, { method: "CANCEL" }),
    );
    expect(text).toContain("METHOD:CANCEL\r\n");
    expect(text).toContain("DTSTART:20261201T090000Z\r\n");
    expect(text).toContain("SEQUENCE:1\r\nDTSTAMP");
    expect(text).toContain("STATUS:CANCELLED\r\n");
    expect(text).not.toContain("VTIMEZONE");
    expect(text).not.toContain("RSVP");
  });

  it("gives a zone without daylight saving one STANDARD observance", () => {
    const lines = vtimezone("Asia/Kolkata", EVENT.start, EVENT.end);
    expect(lines).toEqual([
      "BEGIN:VTIMEZONE",
      "TZID:Asia/Kolkata",
      "BEGIN:STANDARD",
      "DTSTART:20250101T053000",
      "TZOFFSETFROM:+0530",
      "TZOFFSETTO:+0530",
      "END:STANDARD",
      "END:VTIMEZONE",
    ]);
  });
});
