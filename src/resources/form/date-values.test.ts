import dayjs from "dayjs";
import customParseFormat from "dayjs/plugin/customParseFormat";
import { describe, expect, it } from "vitest";
import { formatDmyTime, formatIsoDay, formatTimeOfDay, parseDmy } from "../../lib/dates";
import {
  DAY_FORMAT,
  DAY_INPUT_FORMATS,
  DAY_TIME_FORMAT,
  DAY_TIME_INPUT_FORMATS,
  dayFromWire,
  dayToWire,
  instantFromWire,
  instantToWire,
  TIME_FORMAT,
  timeFromWire,
  timeToWire,
} from "./date-values";

// antd's pickers parse typed text with this plugin, strictly (rc-picker's dayjs config).
dayjs.extend(customParseFormat);
const typed = (text: string, formats: string[]) => {
  const parsed = dayjs(text, formats, true);
  return parsed.isValid() ? parsed : null;
};

const ZONES = ["Pacific/Kiritimati", "Asia/Kolkata", "UTC", "America/New_York", "Pacific/Pago_Pago"];

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

describe("the day picker", () => {
  it.each(ZONES)("shows and sends the API's day unchanged in %s", (zone) => {
    inZone(zone, () => {
      const picked = dayFromWire("2024-03-05")!;
      expect(picked.format(DAY_FORMAT)).toBe("05-03-2024");
      expect(dayToWire(picked)).toBe("2024-03-05");
      expect(dayToWire(dayFromWire("0099-01-01")!)).toBe("0099-01-01");
    });
  });

  it("shows days as the list and show pages do", () => {
    expect(dayFromWire("2024-03-05")!.format(DAY_FORMAT)).toBe(formatIsoDay("2024-03-05"));
  });

  it("is empty for an empty or broken value", () => {
    expect(dayFromWire(undefined)).toBeNull();
    expect(dayFromWire("")).toBeNull();
    expect(dayFromWire("2024-02-30")).toBeNull();
  });

  it.each([
    "5-3-2024",
    "05-03-2024",
    "5-03-2024",
    "05-3-2024",
    "29-02-2024",
    "31-12-1999",
    "29-02-2023",
    "31-02-2024",
    "31-04-2024",
    "00-03-2024",
    "5-0-2024",
    "32-01-2024",
    "10-13-2024",
    "5/3/2024",
    "2024-03-05",
    "5-3-",
  ])("reads typed %j as spec §5's parseDmy does", (text) => {
    const expected = parseDmy(text);
    const parsed = typed(text, DAY_INPUT_FORMATS);
    expect(parsed ? dayToWire(parsed) : null).toBe(expected ? expected.toISOString().slice(0, 10) : null);
  });
});

describe("the date-time picker", () => {
  it.each(ZONES)("shows an instant in local time and sends it back unchanged in %s", (zone) => {
    inZone(zone, () => {
      const picked = instantFromWire("2024-03-05T14:30:00.000Z")!;
      expect(picked.format(DAY_TIME_FORMAT)).toBe(formatDmyTime(new Date("2024-03-05T14:30:00Z")));
      expect(instantToWire(picked)).toBe("2024-03-05T14:30:00.000Z");
    });
  });

  it("reads a typed day and time, single digits too", () => {
    inZone("UTC", () => {
      expect(instantToWire(typed("5-3-2024 9:05", DAY_TIME_INPUT_FORMATS)!)).toBe("2024-03-05T09:05:00.000Z");
      expect(typed("31-02-2024 09:05", DAY_TIME_INPUT_FORMATS)).toBeNull();
    });
  });
});

describe("the time picker", () => {
  it("shows HH:mm and sends HH:MM:SS", () => {
    const picked = timeFromWire("09:05:00")!;
    expect(picked.format(TIME_FORMAT)).toBe(formatTimeOfDay("09:05:00"));
    expect(timeToWire(picked)).toBe("09:05:00");
    expect(timeToWire(timeFromWire("23:59")!)).toBe("23:59:00");
    expect(timeFromWire("9:05")).toBeNull();
  });
});
