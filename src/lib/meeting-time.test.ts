import { describe, expect, it } from "vitest";
import { meetingWhen, timeZoneOptions, wallTimeText } from "./meeting-time";

describe("meeting times", () => {
  it("sends the picked clock time as is", () => {
    expect(wallTimeText({ year: 2026, month: 3, day: 5, hour: 9, minute: 5 })).toBe("2026-03-05T09:05");
  });

  it("shows a meeting in its own zone, naming it when it is not the reader's", () => {
    const [start, end] = ["2026-12-01T09:00:00Z", "2026-12-01T09:45:00Z"];
    expect(meetingWhen(start, end, "Europe/Paris")).toBe("Tue 1 Dec 2026, 10:00–10:45 (Europe/Paris)");
    expect(meetingWhen(start, end, "Europe/Paris", "Asia/Kolkata")).toBe(
      "Tue 1 Dec 2026, 10:00–10:45 (Europe/Paris)",
    );
    expect(meetingWhen(start, end, "Europe/Paris", "Europe/Paris")).toBe("Tue 1 Dec 2026, 10:00–10:45");
    expect(meetingWhen(start, "2026-12-02T10:00:00Z", "UTC", "UTC")).toBe(
      "Tue 1 Dec 2026, 09:00–Wed 2 Dec 2026, 10:00",
    );
  });

  it("offers the reader's zone and UTC among the zones, sorted", () => {
    const zones = timeZoneOptions("Asia/Kolkata");
    expect(zones).toContain("Asia/Kolkata");
    expect(zones).toContain("UTC");
    expect(zones).toContain("Europe/Paris");
    expect([...zones].sort((a, b) => a.localeCompare(b))).toEqual(zones);
  });
});
