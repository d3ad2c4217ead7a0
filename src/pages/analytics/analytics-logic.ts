/** The analytics screen's arithmetic, free of React: daily series with empty days, totals. */
import type { AnalyticsPoint } from "../../../schemas/pdf-library";

const DAY = 24 * 60 * 60 * 1000;

/**
 * Every day from `from` to `to` (inclusive, `YYYY-MM-DD`), with the summed count of the
 * points of that day (0 when there are none), so a chart shows quiet days too.
 *
 * @example
 * dailySeries("2026-11-01", "2026-11-03", [{ day: "2026-11-02", count: 4, … }]);
 * // [{ day: "2026-11-01", count: 0 }, { day: "2026-11-02", count: 4 }, { day: "2026-11-03", count: 0 }]
 */
export function dailySeries(
  from: string,
  to: string,
  points: readonly AnalyticsPoint[],
): { day: string; count: number }[] {
  const byDay = new Map<string, number>();
  for (const p of points) byDay.set(p.day, (byDay.get(p.day) ?? 0) + p.count);
  const out: { day: string; count: number }[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end && out.length < 1000; t += DAY) {
    const day = new Date(t).toISOString().slice(0, 10);
    out.push({ day, count: byDay.get(day) ?? 0 });
  }
  return out;
}

export interface PdfTotals {
  pdfId: string;
  pdfName: string;
  views: number;
  visitors: number;
}

/** Views and visitors per catalogue over the range, most viewed first. */
export function totalsByPdf(
  views: readonly AnalyticsPoint[],
  visitors: readonly AnalyticsPoint[],
): PdfTotals[] {
  const rows = new Map<string, PdfTotals>();
  const row = (p: AnalyticsPoint) => {
    let r = rows.get(p.pdfId);
    if (!r) {
      r = { pdfId: p.pdfId, pdfName: p.pdfName, views: 0, visitors: 0 };
      rows.set(p.pdfId, r);
    }
    return r;
  };
  for (const p of views) row(p).views += p.count;
  for (const p of visitors) row(p).visitors += p.count;
  return [...rows.values()].sort((a, b) => b.views - a.views || a.pdfName.localeCompare(b.pdfName));
}

export const sum = (points: readonly { count: number }[]) => points.reduce((n, p) => n + p.count, 0);
