import { describe, expect, it } from "vitest";
import { columnLabel, plannedChanges, problemsOf, reportOf } from "./import-report";

describe("import reports", () => {
  it("reads the per-row errors of a report, or the header problems of an error answer", () => {
    expect(
      problemsOf({ errors: [{ row: 3, field: "Price", message: "Price must be a number" }, { bad: 1 }] }),
    ).toEqual([{ row: 3, field: "Price", message: "Price must be a number" }]);
    expect(problemsOf({ details: [{ field: "Colour", message: "is not a field of products" }] })).toEqual([
      { field: "Colour", message: "is not a field of products" },
    ]);
    expect(problemsOf("nope")).toEqual([]);
  });

  it("knows a report from another answer", () => {
    expect(reportOf({ message: "Ready", created: 1, updated: 2, errors: [] })).toEqual({
      message: "Ready",
      created: 1,
      updated: 2,
      errors: [],
    });
    expect(reportOf({ statusCode: 400, message: "The file is empty" })).toBeUndefined();
  });

  it("says what a clean dry run would do", () => {
    expect(plannedChanges({ created: 1, updated: 0 }, "product", "products")).toBe(
      "1 product to create, 0 to update",
    );
    expect(plannedChanges({ created: 1200, updated: 3 }, "product", "products")).toBe(
      "1,200 products to create, 3 to update",
    );
    expect(plannedChanges({ created: 0, updated: 0 }, "product", "products")).toMatch(/^Nothing to change/);
    expect(columnLabel({ row: 2, field: "(row)", message: "x" })).toBe("Whole row");
  });
});
