import { describe, expect, it } from "vitest";
import { HttpError } from "../../http/errors";
import { delimiterOf, parseCsv } from "./parse";

describe("parseCsv", () => {
  it("numbers rows as a spreadsheet shows them: header 1, a multi-line cell one row, empty lines counted", () => {
    const table = parseCsv('\ufeffName,Note\r\nA,"two\nlines"\r\n\r\n B , x \r\n');
    expect(table.header).toEqual(["Name", "Note"]);
    expect(table.rows).toEqual([
      { row: 2, cells: ["A", "two\nlines"] },
      { row: 4, cells: ["B", "x"] },
    ]);
  });

  it("reads the semicolons and tabs that some spreadsheets write", () => {
    expect(delimiterOf("Name;Price\nA;1,5")).toBe(";");
    expect(delimiterOf("Name\tPrice")).toBe("\t");
    expect(delimiterOf("Name;Note,x")).toBe(",");
    expect(parseCsv("Name;Price\nA;1,5").rows).toEqual([{ row: 2, cells: ["A", "1,5"] }]);
  });

  it("refuses an empty file or one with only a header, in words", () => {
    expect(() => parseCsv(" \n")).toThrow(HttpError);
    expect(() => parseCsv("Name\n\n")).toThrow("The file has no rows to import, only a header");
  });
});
