import { describe, expect, it } from "vitest";
import { type CrudFilter, matches, TEXT_CONDITION_LABELS, valueAt } from "./conditions";

const lead = {
  name: "Asha Rao",
  email: "asha@example.com",
  score: 42,
  country: "IN",
  tags: ["vip", "newsletter"],
  created: "2026-11-20T09:30:00Z",
  day: "2026-11-20",
  consent: true,
  notes: "",
  address: { city: "Pune" },
};
const one = (field: string, operator: string, value?: unknown) => matches(lead, [{ field, operator, value }]);

describe("matches (the one condition evaluator)", () => {
  it("reads the spec's text conditions, case-insensitive where SQL's ilike is", () => {
    expect(TEXT_CONDITION_LABELS.map(([, label]) => label)).toEqual([
      "is",
      "is not",
      "contains",
      "does not contain",
      "starts with",
      "does not start with",
      "end with",
      "does not end with",
      "is empty",
      "is not empty",
    ]);
    expect(one("name", "eq", "Asha Rao")).toBe(true);
    expect(one("name", "eq", "asha rao")).toBe(false);
    expect(one("name", "ne", "Someone")).toBe(true);
    expect(one("email", "contains", "EXAMPLE")).toBe(true);
    expect(one("email", "ncontains", "example")).toBe(false);
    expect(one("name", "startswith", "asha")).toBe(true);
    expect(one("name", "nstartswith", "Rao")).toBe(true);
    expect(one("email", "endswith", ".com")).toBe(true);
    expect(one("email", "nendswith", ".com")).toBe(false);
    expect(one("notes", "null")).toBe(true);
    expect(one("missing", "null")).toBe(true);
    expect(one("name", "nnull")).toBe(true);
    expect(one("missing", "contains", "x")).toBe(false);
    expect(one("missing", "ncontains", "x")).toBe(true);
  });

  it("compares numbers as numbers, dates as times, whatever form they come in", () => {
    expect(one("score", "gt", "9")).toBe(true); // text "9" < 42 as numbers, not as text
    expect(one("score", "lte", 42)).toBe(true);
    expect(one("score", "between", [40, 50])).toBe(true);
    expect(one("score", "between", [43, 50])).toBe(false);
    expect(one("score", "eq", "42")).toBe(true);
    expect(one("created", "gte", "2026-11-20")).toBe(true);
    expect(one("created", "lt", "2026-11-20T09:00:00+00:00")).toBe(false);
    expect(one("day", "between", ["2026-11-01", "2026-11-30"])).toBe(true);
    expect(one("name", "gt", 5)).toBe(false); // text and a number do not compare
    expect(one("consent", "eq", true)).toBe(true);
    expect(one("consent", "eq", "true")).toBe(true);
  });

  it("treats a list value as holding any of the wanted values", () => {
    expect(one("tags", "eq", "vip")).toBe(true);
    expect(one("tags", "in", ["partner", "newsletter"])).toBe(true);
    expect(one("tags", "ne", "vip")).toBe(false);
    expect(one("tags", "nin", ["partner"])).toBe(true);
    expect(one("country", "in", ["IN", "LK"])).toBe(true);
    expect(one("country", "nin", ["IN"])).toBe(false);
  });

  it("holds for an unfilled condition and for empty groups, as an unfilled list filter does", () => {
    expect(one("name", "eq", "")).toBe(true);
    expect(one("name", "in", [])).toBe(true);
    expect(one("name", "contains", undefined)).toBe(true);
    expect(matches(lead, [])).toBe(true);
    expect(matches(lead, [{ operator: "or", value: [] }])).toBe(true);
  });

  it("nests and/or groups to any depth, reads dotted paths, and refuses unknown operators", () => {
    const tree: CrudFilter[] = [
      {
        operator: "or",
        value: [
          { field: "country", operator: "eq", value: "LK" },
          {
            operator: "and",
            value: [
              { field: "score", operator: "gte", value: 40 },
              { field: "address.city", operator: "eq", value: "Pune" },
            ],
          },
        ],
      },
      { field: "tags", operator: "eq", value: "vip" },
    ];
    expect(matches(lead, tree)).toBe(true);
    expect(matches({ ...lead, score: 10 }, tree)).toBe(false);
    expect(valueAt(lead, "address.city")).toBe("Pune");
    expect(valueAt(lead, "address.zip.code")).toBeUndefined();
    expect(one("name", "sounds-like", "Asha")).toBe(false);
  });

  it("reads each of the ten text conditions over empty and non-string values the same way", () => {
    const on = (actual: unknown, operator: string, value?: unknown) =>
      matches({ v: actual }, [{ field: "v", operator, value }]);
    /** Each label's verdict on `actual`, the value given per operator. */
    const verdicts = (actual: unknown, value: (operator: string) => unknown) =>
      Object.fromEntries(TEXT_CONDITION_LABELS.map(([op, label]) => [label, on(actual, op, value(op))]));
    // An empty value (missing, null, "", []) fails every positive test and meets every negation.
    for (const empty of [undefined, null, "", []]) {
      expect(verdicts(empty, () => "x")).toEqual({
        is: false,
        "is not": true,
        contains: false,
        "does not contain": true,
        "starts with": false,
        "does not start with": true,
        "end with": false,
        "does not end with": true,
        "is empty": true,
        "is not empty": false,
      });
    }
    // Numbers and booleans are read as their text (SQL's cast); is / is not compare numbers as numbers.
    expect(
      verdicts(12345, (op) => (op === "eq" || op === "ne" ? "12345.0" : op.includes("start") ? 12 : 45)),
    ).toEqual({
      is: true,
      "is not": false,
      contains: true,
      "does not contain": false,
      "starts with": true,
      "does not start with": false,
      "end with": true,
      "does not end with": false,
      "is empty": false,
      "is not empty": true,
    });
    expect(on(12345, "contains", "23")).toBe(true);
    expect(on(0, "null")).toBe(false); // zero is a value, not an empty one
    expect(on(false, "nnull")).toBe(true);
    expect(on(true, "startswith", "TR")).toBe(true);
    expect(on(false, "eq", "false")).toBe(true);
    // A list holds when any item does; its negation when none does.
    expect(on(["Alpha", "beta"], "contains", "ALP")).toBe(true);
    expect(on(["Alpha", "beta"], "nstartswith", "b")).toBe(false);
    expect(on(["Alpha", "beta"], "nendswith", "x")).toBe(true);
    expect(on([null, "gamma"], "endswith", "MA")).toBe(true);
  });
});
