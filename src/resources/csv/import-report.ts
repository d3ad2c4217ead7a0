import { plural as count } from "../../lib/text";
/**
 * What `POST /<name>/import` answers (docs/resource-api.md, "CSV"), and how the import dialog
 * puts it into words. Pure: no React, no DOM.
 */

/** One problem of an import: a row's cell, a whole row, or (no `row`) a column of the header. */
export interface ImportProblem {
  /** Row number as a spreadsheet shows it (header = 1); absent for a problem of the header. */
  row?: number;
  /** The column's title, `(row)` for the whole row. */
  field: string;
  message: string;
}

/** The import's report, from a dry run or a real import. */
export interface ImportReport {
  message: string;
  created: number;
  updated: number;
  errors: ImportProblem[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The problems an answer lists: the report's `errors`, else the error shape's `details` (a
 * header the server cannot read). Anything malformed is skipped.
 *
 * @example
 * problemsOf({ errors: [{ row: 3, field: "Price", message: "must be a number" }] });
 * // [{ row: 3, field: "Price", message: "must be a number" }]
 */
export function problemsOf(body: unknown): ImportProblem[] {
  if (!isRecord(body)) return [];
  const list = Array.isArray(body.errors) ? body.errors : Array.isArray(body.details) ? body.details : [];
  return list.flatMap((item: unknown): ImportProblem[] => {
    if (!isRecord(item) || typeof item.field !== "string" || typeof item.message !== "string") return [];
    return [
      {
        ...(typeof item.row === "number" ? { row: item.row } : {}),
        field: item.field,
        message: item.message,
      },
    ];
  });
}

/** The report in a dry run's answer, if the body is one. */
export function reportOf(body: unknown): ImportReport | undefined {
  if (!isRecord(body) || typeof body.created !== "number" || typeof body.updated !== "number")
    return undefined;
  return {
    message: typeof body.message === "string" ? body.message : "",
    created: body.created,
    updated: body.updated,
    errors: problemsOf(body),
  };
}

/**
 * What a clean dry run found, in a person's words.
 *
 * @example
 * plannedChanges({ created: 2, updated: 1 }, "product", "products"); // "2 products to create, 1 to update"
 * plannedChanges({ created: 0, updated: 0 }, "product", "products"); // "Nothing to change: every row matches its product already"
 */
export function plannedChanges(
  report: Pick<ImportReport, "created" | "updated">,
  singular: string,
  plural: string,
): string {
  const { created, updated } = report;
  if (!created && !updated) return `Nothing to change: every row matches its ${singular} already`;
  return `${count(created, singular, plural)} to create, ${updated.toLocaleString("en-US")} to update`;
}

/** The column shown for a problem: the header's title, or "Whole row". */
export const columnLabel = (problem: ImportProblem) =>
  problem.field === "(row)" ? "Whole row" : problem.field;
