import { plural as countOf } from "../../lib/text";
/**
 * The pagination's total: exact ("3 products") or, above the server's exact-count cap, the
 * planner's estimate ("about 33,200 products").
 */
export function totalLabel(total: number, exact: boolean, singular: string, plural: string): string {
  if (exact) return countOf(total, singular, plural);
  const rounded = Number(total.toPrecision(3));
  return `about ${rounded.toLocaleString("en-US")} ${plural}`;
}
