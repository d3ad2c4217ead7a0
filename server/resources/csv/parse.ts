/**
 * Reading an uploaded CSV file into a header and numbered rows, with the limits of an import.
 * Rows are numbered as a spreadsheet shows them: the header is row 1, a record spanning
 * several lines (a quoted line break) is one row, and an empty line is a row too (skipped,
 * but counted, so the numbers still match).
 */
import { parse } from "csv-parse/sync";
import { badRequest } from "../../http/errors";

/** Most data rows one import may hold. */
export const MAX_IMPORT_ROWS = 50_000;
/** Largest file an import accepts (the route's body limit). */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

export interface CsvRow {
  /** Its row number in a spreadsheet (header = 1). */
  row: number;
  cells: string[];
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

/**
 * The delimiter of a file: a comma, unless the header row has none and has semicolons (what
 * spreadsheets write where the comma is the decimal mark) or tabs.
 */
export function delimiterOf(text: string): string {
  const end = text.search(/\r?\n/);
  const first = end < 0 ? text : text.slice(0, end);
  if (first.includes(",")) return ",";
  if (first.includes(";")) return ";";
  if (first.includes("\t")) return "\t";
  return ",";
}

const CSV_PROBLEMS: Readonly<Record<string, (line: string) => string>> = {
  CSV_QUOTE_NOT_CLOSED: (line) => `a quoted cell opened${line} is never closed`,
  CSV_INVALID_CLOSING_QUOTE: (line) => `a quoted cell has text after its closing quote${line}`,
  INVALID_OPENING_QUOTE: (line) => `a cell has a quote in the wrong place${line}`,
};

/** Parses the text of a CSV file; refuses (400) what is not CSV, empty or too long. */
export function parseCsv(text: string): CsvTable {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: delimiterOf(text.replace(/^\ufeff/, "")),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    });
  } catch (error) {
    const e = error as { code?: string; lines?: number; message?: string };
    const line = e.lines ? ` on line ${e.lines}` : "";
    const problem =
      e.code && Object.hasOwn(CSV_PROBLEMS, e.code) ? CSV_PROBLEMS[e.code](line) : "it cannot be read";
    throw badRequest(`The file is not valid CSV: ${problem}`);
  }
  const [header, ...data] = records;
  if (!header || header.every((cell) => !cell.trim())) {
    throw badRequest("The file is empty: its first row must name the columns");
  }
  const rows: CsvRow[] = [];
  data.forEach((cells, index) => {
    if (cells.some((cell) => cell.trim())) rows.push({ row: index + 2, cells: cells.map((c) => c.trim()) });
  });
  if (!rows.length) throw badRequest("The file has no rows to import, only a header");
  if (rows.length > MAX_IMPORT_ROWS) {
    throw badRequest(
      `The file has ${rows.length.toLocaleString("en")} rows; at most ${MAX_IMPORT_ROWS.toLocaleString("en")} can be imported at once. Split it into smaller files.`,
    );
  }
  return { header, rows };
}
