import { describe, expect, it } from "vitest";
import { formatDmy, formatDmyTime, formatIsoDay, formatTimeOfDay, parseDmy, parseIsoDay } from "./dates";

const utc = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day));

describe("parseDmy", () => {
  it("reads a two-digit day-month-year string at UTC midnight", () => {
    expect(parseDmy("15-08-2024")?.toISOString()).toBe("2024-08-15T00:00:00.000Z");
  });

  it("accepts a single-digit day and month", () => {
    expect(parseDmy("5-3-2024")).toEqual(utc(2024, 3, 5));
    expect(parseDmy("05-3-2024")).toEqual(utc(2024, 3, 5));
    expect(parseDmy("5-03-2024")).toEqual(utc(2024, 3, 5));
  });

  it("builds the date in UTC whatever the time zone", () => {
    const date = parseDmy("1-1-2024");
    expect(date?.getTime()).toBe(Date.UTC(2024, 0, 1));
  });

  it.each([
    ["31-02-2024", "no 31 February"],
    ["29-02-2023", "2023 is not a leap year"],
    ["31-04-2024", "April has 30 days"],
    ["32-01-2024", "no 32nd"],
    ["10-13-2024", "no 13th month"],
  ])("gives null for %s (%s)", (input) => {
    expect(parseDmy(input)).toBeNull();
  });

  it("accepts 29 February of a leap year", () => {
    expect(parseDmy("29-02-2024")).toEqual(utc(2024, 2, 29));
  });

  it.each(["00-03-2024", "5-0-2024", "5-3-0", "5-3-0000"])("gives null when a part is zero: %s", (input) => {
    expect(parseDmy(input)).toBeNull();
  });

  it.each(["", "-3-2024", "5--2024", "5-3-", "5-3", "2024", "a-b-c", "5-3-2024-1", "5.3.2024", "2024-03-05"])(
    "gives null when a part is missing or malformed: %j",
    (input) => {
      expect(parseDmy(input)).toBeNull();
    },
  );

  it("gives null for null and undefined", () => {
    expect(parseDmy(null)).toBeNull();
    expect(parseDmy(undefined)).toBeNull();
  });

  it("keeps years below 100 as written instead of mapping them to 19xx", () => {
    expect(parseDmy("5-3-99")?.getUTCFullYear()).toBe(99);
  });
});

describe("formatDmy", () => {
  it("pads day and month to two digits", () => {
    expect(formatDmy(utc(2024, 3, 5))).toBe("05-03-2024");
  });

  it("round-trips with parseDmy", () => {
    expect(formatDmy(parseDmy("9-11-1999")!)).toBe("09-11-1999");
  });
});

/** Runs `body` with the process in another time zone (Node reads TZ again when it changes). */
function inZone(zone: string, body: () => void) {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    body();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

describe("the one display format of the generated screens", () => {
  it("reads an API day (YYYY-MM-DD) at UTC midnight, real days only", () => {
    expect(parseIsoDay("2024-03-05")).toEqual(utc(2024, 3, 5));
    expect(parseIsoDay("2024-02-30")).toBeNull();
    expect(parseIsoDay("05-03-2024")).toBeNull();
    expect(parseIsoDay(null)).toBeNull();
  });

  it("shows a day as DD-MM-YYYY on either side of Greenwich", () => {
    for (const zone of ["Pacific/Kiritimati", "UTC", "Pacific/Pago_Pago"]) {
      inZone(zone, () => expect(formatIsoDay("2024-03-05")).toBe("05-03-2024"));
    }
    expect(formatIsoDay("0099-12-31")).toBe("31-12-0099");
    expect(formatIsoDay("not a day")).toBe("not a day");
  });

  it("shows an instant as DD-MM-YYYY HH:mm in the reader's time", () => {
    const instant = new Date("2024-03-05T20:45:00Z");
    inZone("UTC", () => expect(formatDmyTime(instant)).toBe("05-03-2024 20:45"));
    inZone("Asia/Kolkata", () => expect(formatDmyTime(instant)).toBe("06-03-2024 02:15"));
    inZone("America/New_York", () => expect(formatDmyTime(instant)).toBe("05-03-2024 15:45"));
  });

  it("shows a time of day as HH:mm", () => {
    expect(formatTimeOfDay("09:05:00")).toBe("09:05");
    expect(formatTimeOfDay("23:59:59")).toBe("23:59");
    expect(formatTimeOfDay("soon")).toBe("soon");
  });
});
