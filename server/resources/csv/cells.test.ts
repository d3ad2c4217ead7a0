import { describe, expect, it } from "vitest";
import type { FieldSchema } from "../../../schemas/contract";
import { escapeFormula, formatCell, parseCell, unescapeFormula } from "./cells";

const text: FieldSchema = { type: "string" };
const money: FieldSchema = { type: "number", multipleOf: 0.01 };

describe("formula escaping", () => {
  it("prefixes what a spreadsheet would run, not numbers or plain text", () => {
    for (const cell of ["=1+1", "+A1", "-A1", "@SUM(A1)", "\tx", "\rx", "  =1+1", " @x"]) {
      expect(escapeFormula(cell)).toBe(`'${cell}`);
    }
    for (const cell of ["-5", "+12.5", " -5 ", "plain", "a=b", "'quoted", ""])
      expect(escapeFormula(cell)).toBe(cell);
  });

  it("is undone by the import, whatever the text held", () => {
    for (const value of ["=1+1", "'=1+1", "''@x", "-5", "'-5", "'quoted", "-A1", "x", "\t", "  =1", "' =1"]) {
      expect(unescapeFormula(escapeFormula(value))).toBe(value);
    }
  });
});

describe("cells", () => {
  it("writes values as the file's rules say", () => {
    expect(formatCell(money, 49.9)).toBe("49.90");
    expect(formatCell({ type: "integer" }, -5)).toBe("-5");
    expect(formatCell({ type: "number" }, 0.125)).toBe("0.125");
    expect(formatCell({ type: "boolean" }, false)).toBe("false");
    expect(formatCell({ type: "array" }, ["a.jpg", "b.jpg"])).toBe("a.jpg | b.jpg");
    expect(formatCell(text, null)).toBe("");
    expect(formatCell(text, "=cmd")).toBe("'=cmd");
  });

  it("reads cells back as values, leaving what is not one for the validator to name", () => {
    expect(parseCell(money, "49.90")).toBe(49.9);
    expect(parseCell(money, "1e3")).toBe(1000);
    expect(parseCell(money, "12 EUR")).toBe("12 EUR");
    expect(parseCell(money, "1e400")).toBe("1e400");
    expect(parseCell({ type: "boolean" }, "Yes")).toBe(true);
    expect(parseCell({ type: "boolean" }, "0")).toBe(false);
    expect(parseCell({ type: "boolean" }, "maybe")).toBe("maybe");
    expect(parseCell({ type: "array" }, "a.jpg | b.jpg|")).toEqual(["a.jpg", "b.jpg"]);
    const status: FieldSchema = {
      type: "string",
      enum: ["draft", "active"],
      "x-enumLabels": ["Draft", "Live"],
    };
    expect(parseCell(status, "LIVE")).toBe("active");
    expect(parseCell(status, "Draft")).toBe("draft");
    expect(parseCell(status, "gone")).toBe("gone");
    const instant: FieldSchema = { type: "string", format: "date-time" };
    expect(parseCell(instant, "2024-05-01 08:00")).toBe("2024-05-01T08:00:00Z");
    expect(parseCell(instant, "2024-05-01T08:00:00+02:00")).toBe("2024-05-01T08:00:00+02:00");
    expect(parseCell(text, "'=1+1")).toBe("=1+1");
    // Day first, as spec §5 reads dates and spreadsheets often write them back.
    const day: FieldSchema = { type: "string", format: "date" };
    expect(parseCell(day, "5-3-2024")).toBe("2024-03-05");
    expect(parseCell(day, "2024-03-05")).toBe("2024-03-05");
    expect(parseCell(day, "3/5/2024")).toBe("3/5/2024");
    expect(parseCell(instant, "05-03-2024 9:30")).toBe("2024-03-05T09:30:00Z");
    expect(parseCell({ type: "string", format: "time" }, "9:30")).toBe("09:30");
  });
});
