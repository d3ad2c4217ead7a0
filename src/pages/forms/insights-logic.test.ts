import { describe, expect, it } from "vitest";
import {
  completeDays,
  conversionRate,
  formatRate,
  isQuiet,
  sourceLabel,
  sourceRows,
  statTotals,
} from "./insights-logic";

describe("completeDays", () => {
  it("gives every day of the period, 0 on a day nobody came", () => {
    expect(completeDays([{ day: "2026-03-02", views: 4, submissions: 1 }], 3, "2026-03-03")).toEqual([
      { day: "2026-03-01", views: 0, submissions: 0 },
      { day: "2026-03-02", views: 4, submissions: 1 },
      { day: "2026-03-03", views: 0, submissions: 0 },
    ]);
  });

  it("ends on the server's last day when its clock is ahead", () => {
    const days = completeDays([{ day: "2026-03-04", views: 1, submissions: 0 }], 2, "2026-03-03");
    expect(days.map((d) => d.day)).toEqual(["2026-03-03", "2026-03-04"]);
  });

  it("crosses months and leap days", () => {
    expect(completeDays([], 3, "2028-03-01").map((d) => d.day)).toEqual([
      "2028-02-28",
      "2028-02-29",
      "2028-03-01",
    ]);
  });
});

describe("conversion", () => {
  it("is submissions per view, none without views", () => {
    expect(conversionRate(1, 8)).toBe(0.125);
    expect(conversionRate(3, 0)).toBeNull();
    expect(formatRate(0.125)).toBe("12.5%");
    expect(formatRate(1 / 3)).toBe("33.3%");
    expect(formatRate(null)).toBe("—");
  });

  it("totals a period", () => {
    const totals = statTotals([
      { day: "2026-03-01", views: 6, submissions: 1 },
      { day: "2026-03-02", views: 4, submissions: 2 },
    ]);
    expect(totals).toEqual({ views: 10, submissions: 3, conversion: 0.3 });
    expect(isQuiet(totals)).toBe(false);
    expect(isQuiet(statTotals([]))).toBe(true);
    expect(isQuiet({ views: 0, submissions: 2, conversion: null })).toBe(false);
  });
});

describe("sources", () => {
  it('calls no source "(none)"', () => {
    expect(sourceLabel("")).toBe("(none)");
    expect(sourceLabel("news")).toBe("news");
  });

  it("lists the most viewed first, each source once, with its conversion", () => {
    const rows = sourceRows([
      { source: "", views: 3, submissions: 1 },
      { source: "news", views: 10, submissions: 5 },
      { source: "ads", views: 3, submissions: 2 },
      { source: "news ", views: 2, submissions: 1 },
      { source: "mail", views: 0, submissions: 1 },
    ]);
    expect(rows.map((r) => [r.label, r.views, r.submissions, r.conversion])).toEqual([
      ["news", 12, 6, 0.5],
      ["ads", 3, 2, 2 / 3],
      ["(none)", 3, 1, 1 / 3],
      ["mail", 0, 1, null],
    ]);
  });
});
