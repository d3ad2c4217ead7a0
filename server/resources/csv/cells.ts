/**
 * One CSV cell: a record's value written as text (export) and text read back as a value
 * (import), by the field's schema. Pure, so the rules below are tested on their own
 * (cells.test.ts) and the two directions stay each other's inverse.
 *
 * - Dates as ISO 8601: `date` as `YYYY-MM-DD`, `date-time` in UTC (`2024-03-05T14:30:00.000Z`).
 * - Numbers plain (`-5`, `1234.5`); money (`multipleOf: 0.01`) with its 2 decimals, written
 *   exactly by the money module (schemas/money.ts); an import reads the text as it is and the
 *   validator refuses a third decimal (schemas/decimal.ts), so nothing is rounded on the way in.
 * - Booleans `true` / `false` (an import also reads yes/no and 1/0).
 * - Lists (media URLs) joined by ` | `; an import splits on `|` and trims.
 * - Text that a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage
 *   return, also after leading spaces: LibreOffice's "trim spaces" and Google Sheets drop them
 *   before deciding) gets an apostrophe in front, which spreadsheets show as "this is text"; an
 *   import takes one such apostrophe off again. Numbers are never prefixed.
 * - Dates as a spreadsheet writes them back are read too: `D-M-YYYY` (spec §5: day, month,
 *   year, split on dashes), `D-M-YYYY HH:MM[:SS]` as UTC, and a time with a one-digit hour.
 */
import { baseType, type FieldSchema } from "../../../schemas/contract";
import { decimalPlacesOf } from "../../../schemas/decimal";
import { type Decimal, decimalOf, fixedText } from "../../../schemas/money";

/** Cells starting like this are formulas to a spreadsheet (after any apostrophes we added). */
const FORMULA_START = /^'*\s*[=+\-@\t\r]/;
/** An apostrophe we put in front of such a cell. */
const ESCAPED_FORMULA = /^'+\s*[=+\-@\t\r]/;
/** A plain number written as text: a spreadsheet reads it as a number, never as a formula. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
/** What a number cell may hold (exponents included); anything else is left for the validator. */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
/** Separator of list values in a cell. */
export const LIST_SEPARATOR = " | ";

/**
 * Text as a spreadsheet will show it and never run it: an apostrophe before a formula start.
 *
 * @example
 * escapeFormula("=HYPERLINK(\"x\")"); // "'=HYPERLINK(\"x\")"
 * escapeFormula("-5");                 // "-5" (a number, not a formula)
 * escapeFormula("'=a");                // "''=a" (so the import gives back "'=a")
 */
export function escapeFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text.trim()) ? `'${text}` : text;
}

/**
 * The text of a cell without the apostrophe that `escapeFormula` (or a person) put before a
 * formula start.
 *
 * @example
 * unescapeFormula("'=SUM(A1)"); // "=SUM(A1)"
 * unescapeFormula("'quoted");   // "'quoted"
 */
export function unescapeFormula(text: string): string {
  return ESCAPED_FORMULA.test(text) ? text.slice(1) : text;
}

/**
 * A value of a record (as the API answers it) as cell text. A relation's cell is its label,
 * looked up by the caller and passed as a string.
 *
 * @example
 * formatCell({ type: "number", multipleOf: 0.01 }, 49.9); // "49.90"
 * formatCell({ type: "array" }, ["a.jpg", "b.jpg"]);      // "a.jpg | b.jpg"
 */
export function formatCell(field: FieldSchema, value: unknown): string {
  if (value === null || value === undefined) return "";
  const type = baseType(field);
  if (type === "boolean") return value ? "true" : "false";
  if ((type === "number" || type === "integer") && typeof value === "number") {
    const places = field.multipleOf ? decimalPlacesOf(field.multipleOf) : null;
    // Exact decimal text, half up (1.005.toFixed(2) would say "1.00"): schemas/money.ts.
    return places === null ? String(value) : fixedText(value, places);
  }
  if (Array.isArray(value)) return escapeFormula(value.map(String).join(LIST_SEPARATOR));
  return escapeFormula(String(value));
}

/**
 * A `date-time` as the validator wants it: a space instead of the `T`, and no zone (as a
 * spreadsheet tends to write it), read as UTC, the zone exports are written in.
 */
function normaliseInstant(text: string): string {
  const dayFirst = /^(\d{1,2}-\d{1,2}-\d{4})[T ](.*)$/i.exec(text);
  const iso = dayFirst ? `${normaliseDay(dayFirst[1])}T${dayFirst[2]}` : text;
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{1,2}:\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/i.exec(iso);
  if (!match) return text;
  const [, day, minutes, seconds = ":00", , zone = "Z"] = match;
  return `${day}T${minutes.padStart(5, "0")}${seconds}${zone}`;
}

/**
 * A day written day-month-year (`5-3-2024`, `05-03-2024`: spec §5, what a spreadsheet set to
 * that display writes back) as `YYYY-MM-DD`; anything else as it is, for the validator. Only
 * the order with the 4-digit year last is read: a month-first `3/5/2024` stays refused.
 */
function normaliseDay(text: string): string {
  const match = /^(\d{1,2})-(\d{1,2})-(\d{4})$/.exec(text);
  if (!match) return text;
  const [, day, month, year] = match;
  return `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
}

/**
 * Cell text (trimmed, not empty) as the value a body holds, by the field's type. Text that
 * is not a value of that type is returned as it is, so the one validator says what is wrong
 * with it in its usual words ("must be a number"). Relations are resolved by the caller.
 *
 * @example
 * parseCell({ type: "number" }, "12.5");                                     // 12.5
 * parseCell({ type: "boolean" }, "Yes");                                     // true
 * parseCell({ type: "string", enum: ["draft"], "x-enumLabels": ["Draft"] }, "DRAFT"); // "draft"
 */
export function parseCell(field: FieldSchema, cell: string): unknown {
  const text = unescapeFormula(cell);
  const type = baseType(field);
  if (type === "boolean") {
    if (/^(true|yes|1)$/i.test(text)) return true;
    if (/^(false|no|0)$/i.test(text)) return false;
    return text;
  }
  if (type === "number" || type === "integer") {
    // `1e400` is Infinity, which the validator takes for a number and no column should hold.
    const n = NUMBER.test(text) ? Number(text) : Number.NaN;
    return Number.isFinite(n) ? n : text;
  }
  if (type === "array") {
    return text
      .split("|")
      .map((v) => v.trim())
      .filter(Boolean);
  }
  if (field.enum) return enumValueOf(field, text);
  if (field.format === "date-time") return normaliseInstant(text);
  if (field.format === "date") return normaliseDay(text);
  // A one-digit hour (`9:30`, as spreadsheets show times): the validator wants two.
  if (field.format === "time" && /^\d:\d{2}(:\d{2})?$/.test(text)) return `0${text}`;
  return text;
}

/** A decimal without trailing zeros after its point (1.50 and 1.5 are one value). */
function normal(d: Decimal | null): Decimal | null {
  if (!d) return null;
  let { digits, scale } = d;
  while (scale > 0 && digits % 10n === 0n) {
    digits /= 10n;
    scale--;
  }
  return { digits, scale };
}

const same = (a: Decimal | null, b: Decimal | null) =>
  a !== null && b !== null && a.digits === b.digits && a.scale === b.scale;

/**
 * Why a number cell cannot be read as written, or null when it can (or is not a number cell):
 * text with more digits than a number keeps (`12.340000000000000001`, a spreadsheet's long
 * decimal) would be read as another value (12.34), which no validator could tell. Said in the
 * validator's words for the field's decimals.
 *
 * @example
 * inexactNumber({ type: "number", multipleOf: 0.01 }, "12.340000000000000001"); // "must have at most 2 decimal places"
 * inexactNumber({ type: "number", multipleOf: 0.01 }, "12.34"); // null
 */
export function inexactNumber(field: FieldSchema, cell: string): string | null {
  const type = baseType(field);
  if (type !== "number" && type !== "integer") return null;
  const text = unescapeFormula(cell);
  const n = NUMBER.test(text) ? Number(text) : Number.NaN;
  const written = normal(decimalOf(text));
  if (!Number.isFinite(n) || same(written, normal(decimalOf(n)))) return null;
  const places = type === "integer" ? 0 : field.multipleOf ? decimalPlacesOf(field.multipleOf) : null;
  if (places !== null && written && written.scale > places)
    return places === 0 ? "must be a whole number" : `must have at most ${places} decimal places`;
  return "has more digits than can be kept exactly";
}

/** An enum cell: the value itself, or (any case) a value or its label from `x-enumLabels`. */
function enumValueOf(field: FieldSchema, text: string): unknown {
  const values = field.enum ?? [];
  if (values.some((v) => String(v) === text)) return values.find((v) => String(v) === text);
  const lower = text.toLowerCase();
  const labels = field["x-enumLabels"] ?? [];
  const at = values.findIndex(
    (v, i) => String(v).toLowerCase() === lower || labels[i]?.toLowerCase() === lower,
  );
  return at >= 0 ? values[at] : text;
}
