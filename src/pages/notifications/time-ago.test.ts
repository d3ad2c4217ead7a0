import { describe, expect, it } from "vitest";
import { formatDmyTime } from "../../lib/dates";
import { timeAgo } from "./time-ago";

describe("timeAgo", () => {
  const now = new Date("2025-03-01T10:00:00Z");
  it("says how long ago within a day", () => {
    expect(timeAgo("2025-03-01T09:59:30Z", now)).toBe("Just now");
    // A clock a little ahead of the server's: still just now, never "-1 min ago".
    expect(timeAgo("2025-03-01T10:00:20Z", now)).toBe("Just now");
    expect(timeAgo("2025-03-01T09:55:00Z", now)).toBe("5 min ago");
    expect(timeAgo("2025-03-01T09:00:00Z", now)).toBe("1 h ago");
    expect(timeAgo("2025-02-28T10:00:01Z", now)).toBe("23 h ago");
  });
  it("gives the date and time past a day, and nothing for a bad date", () => {
    expect(timeAgo("2025-02-27T08:30:00Z", now)).toBe(formatDmyTime(new Date("2025-02-27T08:30:00Z")));
    expect(timeAgo("not a date", now)).toBe("");
  });
});
