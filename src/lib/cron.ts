/**
 * Cron expressions of scheduled automations (issue 17 "schedule (cron in a chosen time zone)"):
 * the five classic fields — minute, hour, day of month, month, day of week — each `*`, a number,
 * a range `a-b`, a step `*\/n` or `a-b/n`, or a comma list of those; months and weekdays may be
 * written as names (JAN, MON). Day of week 0 and 7 are both Sunday. Pure.
 */

import { instantOfWallClock, wallClockOf } from "./delays";

interface CronField {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

export const CRON_FIELDS: readonly CronField[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  {
    name: "month",
    min: 1,
    max: 12,
    names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"],
  },
  { name: "day of week", min: 0, max: 7, names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] },
];

/** A number or name of `field`, or null when it is neither. */
function fieldValue(text: string, field: CronField): number | null {
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const index = field.names?.indexOf(text.toUpperCase()) ?? -1;
  if (index < 0) return null;
  return field.name === "month" ? index + 1 : index;
}

/** Why one comma-separated item of `field` is wrong, or null. */
function itemProblem(item: string, field: CronField): string | null {
  const [range, step, extra] = item.split("/");
  if (extra !== undefined || step === "" || (step !== undefined && !/^\d{1,2}$/.test(step)))
    return `the ${field.name} part "${item}" has a step that is not a whole number`;
  if (step !== undefined && Number(step) === 0) return `the ${field.name} part "${item}" steps by 0`;
  if (range === "*") return null;
  const bounds = range.split("-");
  if (bounds.length > 2) return `the ${field.name} part "${item}" is not a number or a range`;
  const values = bounds.map((b) => fieldValue(b, field));
  if (values.some((v) => v === null)) return `the ${field.name} part "${item}" is not a number or a range`;
  if (values.some((v) => (v as number) < field.min || (v as number) > field.max))
    return `the ${field.name} part "${item}" is not between ${field.min} and ${field.max}`;
  if (values.length === 2 && (values[0] as number) > (values[1] as number))
    return `the ${field.name} part "${item}" runs backwards`;
  return null;
}

/**
 * Why `expression` is not a five-field cron expression, in a person's words, or null.
 *
 * @example
 * cronProblem("0 9 * * MON-FRI"); // null
 * cronProblem("0 25 * * *"); // 'the hour part "25" is not between 0 and 23'
 */
export function cronProblem(expression: string): string | null {
  const parts = typeof expression === "string" ? expression.trim().split(/\s+/) : [];
  if (parts.length !== 5 || parts[0] === "")
    return "a schedule has five parts: minute, hour, day of month, month and day of week";
  for (const [i, part] of parts.entries()) {
    for (const item of part.split(",")) {
      const problem = item ? itemProblem(item, CRON_FIELDS[i]) : `the ${CRON_FIELDS[i].name} part is empty`;
      if (problem) return problem;
    }
  }
  return null;
}

/** The values a field's part allows (a valid part: check with `cronProblem` first). */
function allowed(part: string, field: CronField): Set<number> {
  const out = new Set<number>();
  for (const item of part.split(",")) {
    const [range, stepText] = item.split("/");
    const step = stepText ? Number(stepText) : 1;
    let low = field.min;
    let high = field.max;
    if (range !== "*") {
      const [a, b] = range.split("-").map((v) => fieldValue(v, field) as number);
      low = a;
      high = b ?? (stepText ? field.max : a);
    }
    for (let v = low; v <= high; v += step) out.add(v);
  }
  if (field.name === "day of week" && out.has(7)) out.add(0);
  return out;
}

/** How far ahead a schedule is looked for (one that never comes: 31 February). */
const SEARCH_DAYS = 366 * 5;

/**
 * The first instant after `after` that `expression` names, read in `timeZone`; null when none
 * comes within five years. As classic cron: when both day of month and day of week are
 * restricted, a day matching either runs. A time a daylight saving change skips runs at the
 * shifted instant; a repeated hour runs once.
 *
 * @example
 * nextCronTime("0 9 * * MON-FRI", new Date("2026-01-02T10:00:00Z"), "Europe/Paris");
 * // 2026-01-05T08:00:00.000Z (Monday 09:00 in Paris)
 */
export function nextCronTime(expression: string, after: Date, timeZone: string): Date | null {
  const parts = expression.trim().split(/\s+/);
  const [minutes, hours, days, months, weekdays] = parts.map((p, i) => allowed(p, CRON_FIELDS[i]));
  const anyDay = parts[2] === "*";
  const anyWeekday = parts[4] === "*";
  const start = wallClockOf(after, timeZone);
  const sortedHours = [...hours].sort((a, b) => a - b);
  const sortedMinutes = [...minutes].sort((a, b) => a - b);
  for (let offset = 0; offset <= SEARCH_DAYS; offset++) {
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + offset));
    const [year, month, day, weekday] = [
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      date.getUTCDate(),
      date.getUTCDay(),
    ];
    if (!months.has(month)) continue;
    const dayFits = days.has(day);
    const weekdayFits = weekdays.has(weekday);
    const fits =
      anyDay && anyWeekday ? true : anyDay ? weekdayFits : anyWeekday ? dayFits : dayFits || weekdayFits;
    if (!fits) continue;
    for (const hour of sortedHours) {
      for (const minute of sortedMinutes) {
        const at = instantOfWallClock({ year, month, day, hour, minute, second: 0 }, timeZone);
        if (at.getTime() > after.getTime()) return at;
      }
    }
  }
  return null;
}
