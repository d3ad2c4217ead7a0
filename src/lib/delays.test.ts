import { describe, expect, it } from "vitest";
import {
  delayEnd,
  delayProblem,
  instantOfWallClock,
  isTimeZone,
  parseLocalDateTime,
  untilInstant,
  wallClockOf,
} from "./delays";

const at = (iso: string) => new Date(iso);

describe("delayEnd", () => {
  it("adds minutes and hours as elapsed time, whatever the zone", () => {
    const from = at("2025-03-30T00:30:00.250Z");
    expect(delayEnd(from, { amount: 90, unit: "minutes" }).toISOString()).toBe("2025-03-30T02:00:00.250Z");
    // Across London's spring-forward (01:00 UTC) an hour is still an hour.
    expect(delayEnd(from, { amount: 2, unit: "hours" }, "Europe/London").toISOString()).toBe(
      "2025-03-30T02:30:00.250Z",
    );
    expect(delayEnd(from, { amount: 0, unit: "minutes" })).toEqual(from);
  });

  it("keeps the wall-clock time over days across a spring-forward night (23 hours)", () => {
    // 09:00 GMT on the Saturday; BST starts on Sunday 30 March 2025.
    const end = delayEnd(at("2025-03-29T09:00:00Z"), { amount: 1, unit: "days" }, "Europe/London");
    expect(end.toISOString()).toBe("2025-03-30T08:00:00.000Z");
    expect(wallClockOf(end, "Europe/London")).toMatchObject({ day: 30, hour: 9, minute: 0 });
  });

  it("keeps the wall-clock time over weeks across a fall-back night (a week and an hour)", () => {
    // New York falls back on 2 November 2025.
    const from = at("2025-10-30T13:15:00Z"); // 09:15 EDT
    const end = delayEnd(from, { amount: 1, unit: "weeks" }, "America/New_York");
    expect(end.toISOString()).toBe("2025-11-06T14:15:00.000Z"); // 09:15 EST
    expect(end.getTime() - from.getTime()).toBe(7 * 24 * 3600_000 + 3600_000);
  });

  it("counts days in UTC when no zone is given, and in zones without daylight saving exactly", () => {
    expect(delayEnd(at("2025-01-31T10:00:00Z"), { amount: 1, unit: "days" }).toISOString()).toBe(
      "2025-02-01T10:00:00.000Z",
    );
    expect(
      delayEnd(at("2025-03-29T03:30:00Z"), { amount: 3, unit: "days" }, "Asia/Kolkata").toISOString(),
    ).toBe("2025-04-01T03:30:00.000Z");
  });

  it("moves a day that lands in a skipped hour forward by the gap", () => {
    // 02:30 in Paris does not exist on 30 March 2025: the clock shows 03:30 CEST.
    const from = instantOfWallClock(
      { year: 2025, month: 3, day: 29, hour: 2, minute: 30, second: 0 },
      "Europe/Paris",
    );
    const end = delayEnd(from, { amount: 1, unit: "days" }, "Europe/Paris");
    expect(wallClockOf(end, "Europe/Paris")).toMatchObject({ day: 30, hour: 3, minute: 30 });
    expect(end.toISOString()).toBe("2025-03-30T01:30:00.000Z");
  });

  it("refuses units, amounts and zones it cannot use", () => {
    const from = at("2025-01-01T00:00:00Z");
    // biome-ignore lint/suspicious/noExplicitAny: a unit from outside the type.
    expect(() => delayEnd(from, { amount: 1, unit: "months" as any })).toThrow(RangeError);
    expect(() => delayEnd(from, { amount: -1, unit: "days" })).toThrow("Enter a whole number of 0 or more");
    expect(() => delayEnd(from, { amount: 1.5, unit: "hours" })).toThrow(RangeError);
    expect(() => delayEnd(from, { amount: 1, unit: "days" }, "Mars/Olympus")).toThrow("not a time zone");
  });
});

describe("untilInstant", () => {
  it("reads a local date-time in its zone", () => {
    expect(untilInstant("2025-12-01T09:00", "Asia/Kolkata").toISOString()).toBe("2025-12-01T03:30:00.000Z");
    expect(untilInstant("2025-07-01 18:45:30", "America/Los_Angeles").toISOString()).toBe(
      "2025-07-02T01:45:30.000Z",
    );
  });

  it("takes the first of a repeated time, and moves a skipped one forward", () => {
    // Paris repeats 02:00–03:00 on 26 October 2025 (CEST, then CET).
    expect(untilInstant("2025-10-26T02:30", "Europe/Paris").toISOString()).toBe("2025-10-26T00:30:00.000Z");
    expect(untilInstant("2025-10-26T03:30", "Europe/Paris").toISOString()).toBe("2025-10-26T02:30:00.000Z");
    // and skips 02:00–03:00 on 30 March 2025.
    expect(untilInstant("2025-03-30T02:30", "Europe/Paris").toISOString()).toBe("2025-03-30T01:30:00.000Z");
    // Southern hemisphere: Sydney skips 02:00–03:00 on 5 October 2025.
    expect(untilInstant("2025-10-05T02:15", "Australia/Sydney").toISOString()).toBe(
      "2025-10-04T16:15:00.000Z",
    );
  });

  it("refuses a text that is not a real date and time, or an unknown zone", () => {
    expect(() => untilInstant("2025-02-30T09:00", "UTC")).toThrow(RangeError);
    expect(() => untilInstant("tomorrow", "UTC")).toThrow("is not a date and time");
    expect(() => untilInstant("2025-02-01T09:00", "Nowhere/City")).toThrow("is not a time zone");
  });
});

describe("helpers", () => {
  it("parseLocalDateTime accepts seconds or none, and rejects 24:00 and zones", () => {
    expect(parseLocalDateTime("2024-02-29T23:59")).toEqual({
      year: 2024,
      month: 2,
      day: 29,
      hour: 23,
      minute: 59,
      second: 0,
    });
    expect(parseLocalDateTime("2025-02-29T10:00")).toBeNull();
    expect(parseLocalDateTime("2025-01-01T24:00")).toBeNull();
    expect(parseLocalDateTime("2025-01-01T10:00Z")).toBeNull();
  });

  it("isTimeZone knows IANA names only", () => {
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Europe/Atlantis")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });

  it("delayProblem names what is wrong in a person's words", () => {
    expect(delayProblem({ amount: 3, unit: "days" })).toBeNull();
    // biome-ignore lint/suspicious/noExplicitAny: a unit from outside the type.
    expect(delayProblem({ amount: 3, unit: "years" as any })).toBe("Choose minutes, hours, days or weeks");
    expect(delayProblem({ amount: 100_001, unit: "minutes" })).toBe("Enter at most 100000");
  });
});
