/** Errors of an import, row by row, named by the column a person sees in the file. */
import type { EntitySchema } from "../../../schemas/contract";
import { fieldTitle } from "../../../schemas/error-messages";
import { HttpError } from "../../http/errors";

export interface RowError {
  /** Row number as a spreadsheet shows it (header = 1). */
  row: number;
  /** The column's title, or ROW_ITSELF when the error is about the whole row. */
  field: string;
  message: string;
}

/** The `field` of an error about a whole row rather than one of its cells. */
export const ROW_ITSELF = "(row)";

/**
 * The title of the column a field path is about: `images.0` → "Images"; `(body)` → ROW_ITSELF.
 *
 * @example
 * columnTitle(productSchema, "price"); // "Price"
 */
export function columnTitle(schema: EntitySchema, path: string): string {
  const field = path.split(".")[0];
  if (!Object.hasOwn(schema.properties, field)) return ROW_ITSELF;
  return fieldTitle(schema, field);
}

/** PostgreSQL error classes caused by the data of a row (22: data exception; 23: constraint). */
const DATA_ERROR = /^2[23]/;

/**
 * An error raised while checking or writing one row (a rule's HttpError, or a database error
 * as the engine translates it) as that row's errors. Anything else is not about the row (the
 * database went away): it is thrown again.
 */
export function rowErrorsOf(row: number, error: unknown, schema: EntitySchema): RowError[] {
  if (error instanceof HttpError) {
    if (error.details?.length) {
      return error.details.map((d) => ({ row, field: columnTitle(schema, d.field), message: d.message }));
    }
    return [{ row, field: ROW_ITSELF, message: error.message }];
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && DATA_ERROR.test(code)) {
    return [
      { row, field: ROW_ITSELF, message: "The database refused this row: a value breaks one of its rules" },
    ];
  }
  throw error;
}
