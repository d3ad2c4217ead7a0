import { describe, expect, it } from "vitest";
import type { FormFieldDef } from "../../../schemas/form-definition";
import { FORM_FIELD_KINDS } from "../../../schemas/forms";
import { newField } from "./builder-state";
import {
  cleanField,
  createField,
  fieldProblems,
  followLabel,
  operatorsFor,
  PALETTE_GROUPS,
} from "./field-rules";

const email = newField("email", "email", "Email");
const plan: FormFieldDef = { ...newField("dropdown", "plan", "Plan"), options: ["Free", "Pro"] };
const ctx = (field: FormFieldDef, fields: FormFieldDef[] = [email, plan, field]) => ({
  fields,
  index: fields.indexOf(field),
});

describe("a new field", () => {
  it("comes from a palette that offers every kind once", () => {
    expect(PALETTE_GROUPS.flatMap((g) => g.kinds).sort()).toEqual([...FORM_FIELD_KINDS].sort());
  });

  it("takes its kind's label, a free id and, for a choice, two options", () => {
    expect(createField("email", ["email"])).toMatchObject({ id: "email_2", label: "Email", kind: "email" });
    expect(createField("radio", [])).toMatchObject({
      id: "radio_buttons",
      options: ["Option 1", "Option 2"],
    });
    expect(createField("number", []).options).toBeUndefined();
  });

  it("never takes a reserved id", () => {
    expect(createField("hidden", []).id).toBe("campaign");
    expect(createField("text", ["short_text"]).id).toBe("short_text_2");
  });

  it("keeps following its label until its id is typed by hand", () => {
    const field = newField("text", "short_text", "Short text");
    expect(followLabel(field, "Company name", [])).toBe("company_name");
    expect(followLabel({ ...field, id: "org" }, "Company name", [])).toBeUndefined();
    expect(followLabel(field, "Email", ["email"])).toBe("email_2");
  });
});

describe("the problems of a field", () => {
  it("has none for a well-formed field", () => {
    expect(fieldProblems(plan, ctx(plan, [email, plan]))).toEqual({});
  });

  it("checks the id against the pattern, the reserved ids and the other fields", () => {
    const field = newField("text", "x", "X");
    expect(fieldProblems({ ...field, id: "Bad id" }, ctx(field)).id).toMatch(/lower-case/);
    expect(fieldProblems({ ...field, id: "created_at" }, ctx(field)).id).toMatch(
      /kept for the submissions list/,
    );
    expect(fieldProblems({ ...field, id: "email" }, ctx(field)).id).toBe(
      "Another field already has the id “email”",
    );
  });

  it("wants a label, options without blanks or repeats, and ranges the right way round", () => {
    const field: FormFieldDef = {
      ...newField("checkboxes", "tags", " "),
      options: ["A", " ", "A"],
      validation: { minItems: 4, maxItems: 2 },
    };
    expect(fieldProblems(field, ctx(field))).toEqual({
      label: "Give the field a label",
      "options.1": "Option 2 is empty",
      "options.2": "“A” is listed twice",
      "validation.maxItems": "Must not be below the minimum",
      "validation.minItems": "There are only 3 options",
    });
    expect(fieldProblems({ ...plan, options: [] }, ctx(plan, [email, plan])).options).toBe(
      "Add at least one option",
    );
  });

  it("rejects a pattern that does not compile, or that could take too long to check", () => {
    const field = { ...newField("text", "code", "Code"), validation: { pattern: "([a-z" } };
    expect(fieldProblems(field, ctx(field))["validation.pattern"]).toMatch(/^Not a valid pattern/);
    const slow = { ...field, validation: { pattern: "^(a+)+$" } };
    expect(fieldProblems(slow, ctx(slow))["validation.pattern"]).toMatch(/^Repeats a group/);
  });

  it("checks each condition of its logic: a field that is there, an operator for its kind, a value", () => {
    const field: FormFieldDef = {
      ...newField("text", "company", "Company"),
      logic: [
        {
          action: "show",
          match: "all",
          conditions: [
            { field: "plan", operator: "eq", value: "Pro" },
            { field: "gone", operator: "eq", value: "x" },
            { field: "plan", operator: "contains", value: "P" },
            { field: "email", operator: "contains", value: "" },
            { field: "email", operator: "nnull" },
          ],
        },
        { action: "require", match: "any", conditions: [] },
      ],
    };
    expect(fieldProblems(field, ctx(field))).toEqual({
      "logic.0.conditions.1.field": "“gone” is no longer a field of the form",
      "logic.0.conditions.2.operator": "Choose a condition",
      "logic.0.conditions.3.value": "Give a value",
      "logic.1": "Add a condition, or remove the rule",
    });
  });
});

describe("the operators a condition offers", () => {
  it("are the spec's text conditions for text, comparisons for numbers, is / is not for choices", () => {
    expect(operatorsFor("email").map(([, label]) => label)).toEqual([
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
    expect(operatorsFor("rating").map(([op]) => op)).toEqual([
      "eq",
      "ne",
      "gt",
      "lt",
      "gte",
      "lte",
      "null",
      "nnull",
    ]);
    expect(operatorsFor("radio").map(([op]) => op)).toEqual(["eq", "ne", "null", "nnull"]);
    expect(operatorsFor("file").map(([op]) => op)).toEqual(["null", "nnull"]);
  });
});

describe("a field as stored", () => {
  it("keeps only what its kind uses, trimmed", () => {
    const stored = cleanField({
      ...newField("text", "name", " Name "),
      options: ["x"],
      defaultValue: "y",
      placeholder: " ",
      help: " Your full name ",
      logic: [],
    });
    expect(stored).toEqual({
      id: "name",
      kind: "text",
      label: "Name",
      help: "Your full name",
      validation: { maxLength: 255 },
    });
  });
});
