/**
 * The Insights tab's arithmetic, free of React: a form's stats (GET /forms/forms/{id}/stats)
 * as complete daily series, totals with the conversion rate, and one row per utm_source.
 */
import { formatPercent } from "../../../schemas/money";

/** Periods the tab offers, in days. */
export const STAT_PERIODS = [7, 30, 90] as const;
export type StatPeriod = (typeof STAT_PERIODS)[number];

export interface DayStats {
  /** `YYYY-MM-DD`. */
  day: string;
  views: number;
  submissions: number;
}

export interface SourceStats {
  /** The `utm_source` the visitors came with; `""` for none. */
  source: string;
  views: number;
  submissions: number;
}

export interface FormStats {
  days: DayStats[];
  sources: SourceStats[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * `count` days ending on the later of `today` and the last day the server counted (its clock
 * may be a day ahead of the browser's), each with its counts, 0 on a day nobody came.
 *
 * @example
 * completeDays([{ day: "2026-03-02", views: 4, submissions: 1 }], 3, "2026-03-03");
 * // [{ day: "2026-03-01", views: 0, submissions: 0 }, { day: "2026-03-02", views: 4, submissions: 1 },
 * //  { day: "2026-03-03", views: 0, submissions: 0 }]
 */
export function completeDays(days: readonly DayStats[], count: number, today: string): DayStats[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const last = days.reduce((max, d) => (d.day > max ? d.day : max), today);
  const end = Date.parse(`${last}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => {
    const day = isoDay(end - (count - 1 - i) * DAY_MS);
    const known = byDay.get(day);
    return { day, views: known?.views ?? 0, submissions: known?.submissions ?? 0 };
  });
}

/**
 * Submissions per view, or `null` without views (no rate to speak of). It may pass 1: answers
 * sent without the form's page (an API client, a page cached before counting) have no view.
 */
export const conversionRate = (submissions: number, views: number): number | null =>
  views > 0 ? submissions / views : null;

/**
 * A rate as a percentage, "—" when there is none.
 *
 * @example
 * formatRate(0.125); // "12.5%"
 * formatRate(null);  // "—"
 */
export const formatRate = (rate: number | null): string =>
  rate === null ? "—" : formatPercent(rate, { fraction: true, decimals: 1 });

export interface StatTotals {
  views: number;
  submissions: number;
  conversion: number | null;
}

/** Views and submissions over the period, and their conversion. */
export function statTotals(days: readonly DayStats[]): StatTotals {
  const views = days.reduce((n, d) => n + d.views, 0);
  const submissions = days.reduce((n, d) => n + d.submissions, 0);
  return { views, submissions, conversion: conversionRate(submissions, views) };
}

/** The name of a source as the tab shows it. */
export const sourceLabel = (source: string): string => source.trim() || "(none)";

export interface SourceRow extends SourceStats {
  label: string;
  conversion: number | null;
}

/**
 * One row per source, most viewed first (then most answers, then by name), with its
 * conversion; the same source sent twice is counted once.
 *
 * @example
 * sourceRows([{ source: "", views: 3, submissions: 1 }, { source: "news", views: 10, submissions: 5 }])
 *   .map((r) => [r.label, r.conversion]);
 * // [["news", 0.5], ["(none)", 0.333…]]
 */
export function sourceRows(sources: readonly SourceStats[]): SourceRow[] {
  const merged = new Map<string, SourceStats>();
  for (const s of sources) {
    const key = s.source.trim();
    const row = merged.get(key) ?? { source: key, views: 0, submissions: 0 };
    row.views += s.views;
    row.submissions += s.submissions;
    merged.set(key, row);
  }
  return [...merged.values()]
    .map((s) => ({ ...s, label: sourceLabel(s.source), conversion: conversionRate(s.submissions, s.views) }))
    .sort((a, b) => b.views - a.views || b.submissions - a.submissions || a.label.localeCompare(b.label));
}

/** Nothing to show yet: nobody opened the form, nor answered it, in the period. */
export const isQuiet = (totals: StatTotals): boolean => totals.views === 0 && totals.submissions === 0;
