import { describe, expect, it } from "vitest";
import { dailySeries, sum, totalsByPdf } from "./analytics-logic";

const point = (day: string, pdfId: string, count: number) => ({
  day,
  pdfId,
  pdfName: pdfId.toUpperCase(),
  count,
});

describe("dailySeries", () => {
  it("fills quiet days with zero and sums catalogues of a day", () => {
    expect(
      dailySeries("2026-11-01", "2026-11-03", [point("2026-11-02", "a", 4), point("2026-11-02", "b", 1)]),
    ).toEqual([
      { day: "2026-11-01", count: 0 },
      { day: "2026-11-02", count: 5 },
      { day: "2026-11-03", count: 0 },
    ]);
  });

  it("crosses month ends and handles a one-day range", () => {
    expect(dailySeries("2026-02-28", "2026-03-01", []).map((d) => d.day)).toEqual([
      "2026-02-28",
      "2026-03-01",
    ]);
    expect(dailySeries("2026-11-05", "2026-11-05", [])).toHaveLength(1);
  });
});

describe("totalsByPdf", () => {
  it("adds views and visitors per catalogue, most viewed first", () => {
    const rows = totalsByPdf(
      [point("2026-11-01", "a", 2), point("2026-11-02", "a", 3), point("2026-11-01", "b", 9)],
      [point("2026-11-01", "a", 1), point("2026-11-02", "a", 2)],
    );
    expect(rows).toEqual([
      { pdfId: "b", pdfName: "B", views: 9, visitors: 0 },
      { pdfId: "a", pdfName: "A", views: 5, visitors: 3 },
    ]);
    expect(sum([{ count: 2 }, { count: 3 }])).toBe(5);
  });
});
