import { describe, expect, it } from "vitest";
import { cronProblem, nextCronTime } from "./cron";

describe("cronProblem", () => {
  it("accepts the five classic fields with ranges, steps, lists and names", () => {
    for (const good of [
      "* * * * *",
      "0 9 * * MON-FRI",
      "*/15 8-18 1,15 jan-jun 0,7",
      "5 4 * * sun",
      "0 0 1-31/2 * *",
    ])
      expect(cronProblem(good)).toBeNull();
  });

  it("says what is wrong with a bad one", () => {
    expect(cronProblem("0 9 * *")).toBe(
      "a schedule has five parts: minute, hour, day of month, month and day of week",
    );
    expect(cronProblem("60 * * * *")).toBe('the minute part "60" is not between 0 and 59');
    expect(cronProblem("* * 0 * *")).toBe('the day of month part "0" is not between 1 and 31');
    expect(cronProblem("*/0 * * * *")).toBe('the minute part "*/0" steps by 0');
    expect(cronProblem("* 5-2 * * *")).toBe('the hour part "5-2" runs backwards');
    expect(cronProblem("* * * FOO *")).toBe('the month part "FOO" is not a number or a range');
    expect(cronProblem("1,,2 * * * *")).toBe("the minute part is empty");
  });
});

describe("nextCronTime", () => {
  it("finds the next weekday morning in the zone", () => {
    // Friday 2 January 2026, 11:00 in Paris: the next is Monday 09:00 Paris (08:00 UTC).
    expect(
      nextCronTime("0 9 * * MON-FRI", new Date("2026-01-02T10:00:00Z"), "Europe/Paris")?.toISOString(),
    ).toBe("2026-01-05T08:00:00.000Z");
  });
  it("steps minutes and never answers the instant it starts from", () => {
    expect(nextCronTime("*/15 * * * *", new Date("2026-03-01T10:15:00Z"), "UTC")?.toISOString()).toBe(
      "2026-03-01T10:30:00.000Z",
    );
  });
  it("reads a day of month or a day of week when both are set, and none for 31 February", () => {
    expect(nextCronTime("0 0 13 * FRI", new Date("2026-02-01T00:00:00Z"), "UTC")?.toISOString()).toBe(
      "2026-02-06T00:00:00.000Z",
    );
    expect(nextCronTime("0 0 31 2 *", new Date("2026-01-01T00:00:00Z"), "UTC")).toBeNull();
  });
});
