/**
 * Cron expressions of scheduled automations (issue 17 "schedule (cron in a chosen time zone)"):
 * the five classic fields — minute, hour, day of month, month, day of week — each `*`, a number,
 * a range `a-b`, a step `*\/n` or `a-b/n`, or a comma list of those; months and weekdays may be
 * written as names (JAN, MON). Day of week 0 and 7 are both Sunday. Pure.
 */

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
