import { describe, expect, it } from "vitest";
import { answerText, checkAnswers, dmyToIso, fieldStates } from "./form-answers";
import type { FormFieldDef } from "./form-definition";

const text = (id: string, extra: Partial<FormFieldDef> = {}): FormFieldDef => ({
  id,
  kind: "text",
  label: id[0].toUpperCase() + id.slice(1),
  validation: { maxLength: 20 },
  ...extra,
});

describe("the logic evaluator", () => {
  const fields: FormFieldDef[] = [
    { id: "plan", kind: "radio", label: "Plan", options: ["Free", "Pro"], validation: {} },
    text("company", {
      logic: [
        { action: "show", match: "all", conditions: [{ field: "plan", operator: "eq", value: "Pro" }] },
      ],
    }),
    text("vat", {
      logic: [{ action: "show", match: "all", conditions: [{ field: "company", operator: "nnull" }] }],
    }),
    text("coupon", {
      logic: [
        {
          action: "hide",
          match: "any",
          conditions: [
            { field: "plan", operator: "eq", value: "Free" },
            { field: "company", operator: "contains", value: "acme" },
          ],
        },
      ],
    }),
    text("phone", {
      logic: [
        { action: "require", match: "all", conditions: [{ field: "plan", operator: "eq", value: "Pro" }] },
      ],
    }),
  ];

  it("shows a field when its show rule holds, and only then", () => {
    expect(fieldStates(fields, { plan: "Free" }).visible.has("company")).toBe(false);
    expect(fieldStates(fields, { plan: "Pro" }).visible.has("company")).toBe(true);
  });

  it("counts the answer of a hidden field as empty, so a chain hides as a person expects", () => {
    const states = fieldStates(fields, { plan: "Free", company: "Acme" });
    expect(states.visible.has("company")).toBe(false);
    expect(states.visible.has("vat")).toBe(false);
    expect(fieldStates(fields, { plan: "Pro", company: "Acme" }).visible.has("vat")).toBe(true);
  });

  it("hides when any condition of an `any` rule holds (text compared without case)", () => {
    expect(fieldStates(fields, { plan: "Free" }).visible.has("coupon")).toBe(false);
    expect(fieldStates(fields, { plan: "Pro", company: "ACME Ltd" }).visible.has("coupon")).toBe(false);
    expect(fieldStates(fields, { plan: "Pro", company: "Other" }).visible.has("coupon")).toBe(true);
  });

  it("requires a field when its require rule holds", () => {
    expect(fieldStates(fields, { plan: "Pro" }).required.has("phone")).toBe(true);
    expect(fieldStates(fields, { plan: "Free" }).required.has("phone")).toBe(false);
  });
});

describe("answers to hidden fields", () => {
  it("never change what shows, even from a field later in the form", () => {
    const fields: FormFieldDef[] = [
      text("a", {
        required: true,
        logic: [{ action: "hide", match: "all", conditions: [{ field: "b", operator: "nnull" }] }],
      }),
      text("b", {
        logic: [{ action: "show", match: "all", conditions: [{ field: "c", operator: "eq", value: "yes" }] }],
      }),
      text("c"),
    ];
    expect(checkAnswers(fields, { b: "filled" }).errors).toEqual([{ field: "a", message: "A is required" }]);
    expect(fieldStates(fields, { b: "filled", c: "yes" }).visible.has("a")).toBe(false);
  });
});

describe("checkAnswers", () => {
  it("counts spaces as no answer, and reads only plain numbers", () => {
    const fields: FormFieldDef[] = [{ id: "n", kind: "number", label: "N", required: true, validation: {} }];
    expect(checkAnswers(fields, { n: "   " }).errors[0].message).toBe("N is required");
    expect(checkAnswers(fields, { n: "0x10" }).errors[0].message).toBe("N must be a number");
    expect(checkAnswers(fields, { n: "-2.5" }).values).toEqual({ n: -2.5 });
  });

  it("takes an option written with stray spaces as the option itself", () => {
    const fields: FormFieldDef[] = [
      { id: "p", kind: "radio", label: "P", options: [" Pro "], validation: {} },
    ];
    expect(checkAnswers(fields, { p: "Pro" }).values).toEqual({ p: " Pro " });
  });

  it("reads only the answers' own keys (a field named like an object's member)", () => {
    const fields: FormFieldDef[] = [text("constructor")];
    expect(checkAnswers(fields, {})).toEqual({ values: {}, errors: [] });
  });

  it("requires a field required only when shown only when it is shown", () => {
    const fields = [
      { id: "plan", kind: "radio", label: "Plan", options: ["Free", "Pro"], validation: {} },
      text("company", {
        required: true,
        logic: [
          { action: "show", match: "all", conditions: [{ field: "plan", operator: "eq", value: "Pro" }] },
        ],
      }),
    ] satisfies FormFieldDef[];
    expect(checkAnswers(fields, { plan: "Free" }).errors).toEqual([]);
    expect(checkAnswers(fields, { plan: "Pro" }).errors).toEqual([
      { field: "company", message: "Company is required" },
    ]);
    expect(checkAnswers(fields, { plan: "Free", company: "Dropped" }).values).toEqual({ plan: "Free" });
  });

  it("normalises what it stores and says what is wrong in words", () => {
    const fields: FormFieldDef[] = [
      { id: "email", kind: "email", label: "Email", validation: { maxLength: 320 } },
      { id: "seats", kind: "number", label: "Seats", validation: { min: 1, max: 10 } },
      { id: "start", kind: "date", label: "Start", validation: {} },
      {
        id: "tags",
        kind: "checkboxes",
        label: "Tags",
        options: ["a", "b", "c"],
        validation: { maxItems: 2 },
      },
      { id: "ok", kind: "consent", label: "I agree", required: true, validation: {} },
      { id: "stars", kind: "rating", label: "Stars", validation: { min: 1, max: 5 } },
    ];
    const good = checkAnswers(fields, {
      email: " a@b.co ",
      seats: "3",
      start: "5-3-2026",
      tags: ["a", "a", "b"],
      ok: "on",
      stars: 4,
    });
    expect(good).toEqual({
      values: { email: "a@b.co", seats: 3, start: "2026-03-05", tags: ["a", "b"], ok: true, stars: 4 },
      errors: [],
    });
    const bad = checkAnswers(fields, {
      email: "nope",
      seats: "11",
      start: "31-02-2026",
      tags: ["a", "b", "c"],
      stars: 4.5,
    });
    expect(bad.errors).toEqual([
      { field: "email", message: "Email must be a valid email address" },
      { field: "seats", message: "Seats must be 10 or less" },
      { field: "start", message: "Start must be a real date written day-month-year, such as 31-12-2025" },
      { field: "tags", message: "Tags takes at most 2 choices" },
      { field: "ok", message: '"I agree" must be ticked' },
      { field: "stars", message: "Stars must be a whole number" },
    ]);
  });

  it("never takes an option that is not offered", () => {
    const fields: FormFieldDef[] = [
      { id: "plan", kind: "dropdown", label: "Plan", options: ["Free"], validation: {} },
    ];
    expect(checkAnswers(fields, { plan: "Gold" }).errors[0].message).toBe("Plan must be one of its choices");
  });
});

describe("the date rule (spec §5)", () => {
  it("reads day-month-year with single digits, in UTC, and no date for anything else", () => {
    expect(dmyToIso("5-3-2026")).toBe("2026-03-05");
    expect(dmyToIso("05-03-2026")).toBe("2026-03-05");
    expect(dmyToIso("29-02-2024")).toBe("2024-02-29");
    for (const bad of ["29-02-2025", "0-3-2026", "5-0-2026", "5-3-0", "5-3", "2026-03-05x", "a-b-c"])
      expect(dmyToIso(bad)).toBeNull();
  });

  it("writes a stored date back as day-month-year", () => {
    expect(answerText({ kind: "date" }, "2026-03-05")).toBe("05-03-2026");
    expect(answerText({ kind: "consent" }, false)).toBe("No");
    expect(answerText({ kind: "checkboxes" }, ["a", "b"])).toBe("a, b");
  });
});
