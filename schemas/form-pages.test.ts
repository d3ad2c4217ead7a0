import { describe, expect, it } from "vitest";
import { checkAnswers, fieldStates } from "./form-answers";
import { defaultSettings, type FormFieldDef } from "./form-definition";
import { definitionProblems } from "./form-definition-checks";
import { checkPages, formPages, isMultiPage, pageProblems, shownPages, stepPage } from "./form-pages";

const fields: FormFieldDef[] = [
  { id: "name", kind: "text", label: "Name", required: true, validation: {} },
  { id: "plan", kind: "radio", label: "Plan", options: ["Free", "Pro"], validation: {} },
  {
    id: "company_page",
    kind: "page",
    label: "Company",
    validation: {},
    logic: [{ action: "hide", match: "all", conditions: [{ field: "plan", operator: "eq", value: "Free" }] }],
  },
  { id: "company", kind: "text", label: "Company name", required: true, validation: {} },
  { id: "end", kind: "page", label: "Last", validation: {} },
  { id: "notes", kind: "longtext", label: "Notes", validation: {} },
];

describe("pages of a form", () => {
  it("splits at page breaks; a break first titles the first page; no break is one page", () => {
    expect(formPages(fields).map((p) => [p.title, p.fields.map((f) => f.id)])).toEqual([
      ["", ["name", "plan"]],
      ["Company", ["company"]],
      ["Last", ["notes"]],
    ]);
    const titled = formPages([{ ...fields[4] }, fields[0]]);
    expect(titled).toHaveLength(1);
    expect(titled[0].title).toBe("Last");
    expect(isMultiPage(fields.filter((f) => f.kind !== "page"))).toBe(false);
  });

  it("skips a page by its break's rule, and its fields are hidden and not required", () => {
    expect(shownPages(fields, { plan: "Free" })).toEqual([0, 2]);
    expect(shownPages(fields, { plan: "Pro" })).toEqual([0, 1, 2]);
    expect(stepPage(fields, { plan: "Free" }, 0, 1)).toBe(2);
    expect(stepPage(fields, { plan: "Free" }, 2, -1)).toBe(0);
    expect(stepPage(fields, { plan: "Pro" }, 2, 1)).toBeNull();
    expect(fieldStates(fields, { plan: "Free" }).visible.has("company")).toBe(false);
    expect(checkAnswers(fields, { name: "A", plan: "Free", company: "X" })).toEqual({
      values: { name: "A", plan: "Free" },
      errors: [],
    });
    expect(checkAnswers(fields, { name: "A", plan: "Pro" }).errors.map((e) => e.field)).toEqual(["company"]);
  });

  it("checks one page's visible fields only", () => {
    expect(checkPages(fields, { plan: "Pro" }, (p) => p === 0).errors.map((e) => e.field)).toEqual(["name"]);
    expect(checkPages(fields, { name: "A", plan: "Pro" }, (p) => p === 0).errors).toEqual([]);
  });

  it("refuses drafts nobody could fill in page by page, and says nothing of one-page forms", () => {
    const bad: FormFieldDef[] = [
      {
        ...fields[0],
        logic: [{ action: "show", match: "all", conditions: [{ field: "notes", operator: "nnull" }] }],
      },
      fields[1],
      {
        ...fields[2],
        logic: [{ action: "require", match: "all", conditions: [{ field: "company", operator: "nnull" }] }],
      },
      fields[3],
      fields[4],
    ];
    const problems = pageProblems({ fields: bad, settings: defaultSettings() }).map((p) => p.field);
    expect(problems).toEqual([
      "fields.4.label",
      "fields.2.logic.0.action",
      "fields.2.logic.0.conditions.0.field",
    ]);
    const onePage = fields.filter((f) => f.kind !== "page");
    expect(pageProblems({ fields: onePage, settings: defaultSettings() })).toEqual([]);
    expect(definitionProblems({ fields, settings: defaultSettings() })).toEqual([]);
  });
});
