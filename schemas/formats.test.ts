import { describe, expect, it } from "vitest";
import { isDay, isInstant, isTimeOfDay } from "./formats";
import { createAjv } from "./validator-config";

describe("the engine's string formats", () => {
  it.each([
    ["2024-03-05", true],
    ["2024-02-29", true],
    ["0001-01-01", true],
    ["9999-12-31", true],
    ["2023-02-29", false],
    ["2024-04-31", false],
    ["0000-01-01", false],
    ["2024-3-5", false],
    ["05-03-2024", false],
    ["2024-03-05T00:00:00Z", false],
  ])("date %s → %s", (text, ok) => expect(isDay(text)).toBe(ok));

  it.each([
    ["2024-03-05T14:30:00Z", true],
    ["2024-03-05T14:30:00.123456Z", true],
    ["2024-03-05t14:30:00z", true],
    ["2024-03-05T14:30:00+05:30", true],
    ["2024-03-05T14:30:00-08:00", true],
    ["2024-03-05T14:30:00", false],
    ["2024-03-05 14:30:00Z", false],
    ["2024-03-05T24:00:00Z", false],
    ["2024-03-05T14:60:00Z", false],
    ["2024-02-30T14:30:00Z", false],
    ["2024-03-05T14:30:00+24:00", false],
    ["0001-01-01T00:30:00+01:00", false],
    ["9999-12-31T23:30:00-01:00", false],
    ["2024-03-05", false],
  ])("date-time %s → %s", (text, ok) => expect(isInstant(text)).toBe(ok));

  it.each([
    ["09:30", true],
    ["00:00", true],
    ["23:59:59", true],
    ["9:30", false],
    ["24:00", false],
    ["12:60", false],
    ["12:30:60", false],
    ["12:30:00Z", false],
    ["12:30:00+01:00", false],
    ["12:30:00.5", false],
  ])("time %s → %s", (text, ok) => expect(isTimeOfDay(text)).toBe(ok));

  it("replaces ajv-formats' definitions in the shared Ajv, on both sides", () => {
    const ajv = createAjv({ coerce: false });
    const time = ajv.compile({ type: "string", format: "time" });
    expect(time("09:30")).toBe(true);
    expect(time("09:30:00Z")).toBe(false);
    const dateTime = ajv.compile({ type: "string", format: "date-time" });
    expect(dateTime("2024-03-05T14:30:00")).toBe(false);
    expect(dateTime("2024-03-05T14:30:00Z")).toBe(true);
    const email = ajv.compile({ type: "string", format: "email" });
    expect(email("a@example.com")).toBe(true);
    expect(email("a@")).toBe(false);
  });
});
