import { describe, expect, it } from "vitest";
import { MODULE_IDS } from "../../../resources/modules";
import type { FormFieldDef } from "../../../schemas/form-definition";
import { filterControls, listColumns } from "../../resources/columns";
import { fieldKind } from "../../resources/fields";
import { answerSchema, submissionsDefinition, submissionsResourceName } from "./submissions-definition";

const FORM = "0b7c5a7e-3f4d-4c1a-9a55-2f1e8d6c4b3a";

const field = (id: string, kind: FormFieldDef["kind"], extra: Partial<FormFieldDef> = {}): FormFieldDef => ({
  id,
  kind,
  label: id.charAt(0).toUpperCase() + id.slice(1).replace(/_/g, " "),
  validation: {},
  ...extra,
});

const FIELDS: FormFieldDef[] = [
  field("intro", "heading"),
  field("name", "text"),
  field("email", "email"),
  field("message", "longtext"),
  field("phone", "phone"),
  field("age", "number"),
  field("score", "rating"),
  field("birthday", "date"),
  field("plan", "radio", { options: ["Free", "Pro"] }),
  field("country", "dropdown", { options: [] }),
  field("topics", "checkboxes", { options: ["A", "B"] }),
  field("cv", "file"),
  field("terms", "consent"),
  field("campaign_ref", "hidden"),
];

describe("submissionsDefinition", () => {
  const def = submissionsDefinition(FORM, { fields: FIELDS });
  const { schema } = def;

  it("is the run-time resource forms/<id>/submissions of the Forms module", () => {
    expect(def).toMatchObject({
      name: submissionsResourceName(FORM),
      base: "forms",
      moduleID: MODULE_IDS.forms,
      routes: { create: false, edit: false },
      csv: "export",
    });
    expect(def.name).toBe(`forms/${FORM}/submissions`);
  });

  it("has the time it was sent, the UTM columns (in view at 1440 px), then one column per answerable field", () => {
    expect(schema["x-list"]).toEqual([
      "created_at",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      ...FIELDS.filter((f) => f.kind !== "heading" && f.kind !== "file").map((f) => f.id),
    ]);
    expect(
      listColumns(def)
        .map((c) => c.title)
        .slice(0, 5),
    ).toEqual(["Submitted", "UTM source", "UTM medium", "UTM campaign", "Name"]);
    expect(schema["x-label"]).toBe("created_at");
    expect(schema["x-defaultSort"]).toBe("-created_at");
  });

  it("types each answer by its field's kind", () => {
    const kinds = Object.fromEntries(Object.keys(schema.properties).map((f) => [f, fieldKind(schema, f)]));
    expect(kinds).toMatchObject({
      created_at: "datetime",
      name: "text",
      email: "email",
      message: "multiline",
      age: "number",
      score: "number",
      birthday: "date",
      plan: "enum",
      country: "text",
      topics: "list",
      cv: "list",
      terms: "boolean",
      campaign_ref: "text",
      utm_source: "text",
    });
    expect(Object.values(schema.properties).every((p) => p.readOnly)).toBe(true);
  });

  it("searches text answers and filters the others by kind", () => {
    expect(schema["x-searchable"]).toEqual([
      "name",
      "email",
      "message",
      "phone",
      "campaign_ref",
      "utm_source",
      "utm_campaign",
    ]);
    expect(
      listColumns(def)
        .filter((c) => !c.sortable)
        .map((c) => c.field),
    ).toEqual(["topics"]);
    expect(filterControls(def).map((c) => [c.field, c.kind])).toEqual([
      ["created_at", "date-range"],
      ["age", "number-range"],
      ["score", "number-range"],
      ["birthday", "date-range"],
      ["plan", "select"],
      // A choice without options (the builder allows it for a moment) filters as text.
      ["country", "text"],
      ["terms", "select"],
      // Each UTM column has a filter of its own, the searched ones too (issue 27).
      ["utm_source", "text"],
      ["utm_medium", "text"],
      ["utm_campaign", "text"],
    ]);
  });

  it("reads a field named like a tracking column as that column, as the server does", () => {
    const own = submissionsDefinition(FORM, {
      fields: [field("utm_source", "hidden"), field("referrer", "text")],
    });
    expect(own.schema["x-list"]).toEqual(["created_at", "utm_source", "utm_medium", "utm_campaign"]);
    expect(own.schema.properties.utm_source.title).toBe("UTM source");
  });

  it("works for a form without fields yet", () => {
    expect(submissionsDefinition(FORM, { fields: [] }).schema["x-list"]).toEqual([
      "created_at",
      "utm_source",
      "utm_medium",
      "utm_campaign",
    ]);
  });
});

describe("answerSchema", () => {
  it("offers a choice's options once, and titles a field without a label by its id", () => {
    expect(answerSchema(field("plan", "dropdown", { options: ["A", "B", "A"] })).enum).toEqual(["A", "B"]);
    expect(answerSchema({ ...field("x", "text"), label: " " }).title).toBe("x");
  });
});
