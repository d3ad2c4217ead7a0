import { describe, expect, it } from "vitest";
import { cronProblem } from "./cron";

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
