import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { defaultSettings, emptyDefinition, type FormDefinition } from "./form-definition";
import { definitionProblems, nestedRepeat } from "./form-definition-checks";
import { formDefinitionSchema } from "./form-definition-schema";
import { DEFAULT_TRACKING_PARAMETERS, resetTracking } from "./forms";

const ajv = new Ajv({ allErrors: true, strict: false });
const valid = ajv.compile(formDefinitionSchema);

describe("a stored form definition", () => {
  it("starts valid: the empty draft with default settings passes the schema and the checks", () => {
    expect(valid(emptyDefinition())).toBe(true);
    expect(definitionProblems(emptyDefinition())).toEqual([]);
  });

  it("refuses bad addresses, a Destination-less notification and a non-email Reply-To, per path", () => {
    const settings = defaultSettings();
    settings.mail = {
      ...settings.mail,
      isEmail: true,
      sendBcc: ["ok@example.com", "nope"],
      replyToField: "name",
    };
    const def: FormDefinition = {
      fields: [{ id: "name", kind: "text", label: "Name", validation: {} }],
      settings,
    };
    expect(definitionProblems(def).map((p) => p.field)).toEqual([
      "settings.mail.sendBcc.1",
      "settings.mail.Destination",
      "settings.mail.replyToField",
    ]);
  });

  it("keeps the five default parameters as the spec says, and custom ones apart from them", () => {
    const settings = defaultSettings();
    settings.utm.customParameters = [
      { id: 6, name: "utm_source", type: 1 },
      { id: 7, name: "gclid", type: 1 },
      { id: 8, name: "gclid", type: 1 },
    ];
    settings.utm.defaultParameters = settings.utm.defaultParameters.slice(1);
    expect(definitionProblems({ fields: [], settings }).map((p) => p.field)).toEqual([
      "settings.utm.defaultParameters",
      "settings.utm.customParameters.0.name",
      "settings.utm.customParameters.2.name",
    ]);
  });
});

describe("forms nobody could send", () => {
  it("are refused: a show loop, a required hidden field without a value, more choices asked than offered", () => {
    const settings = defaultSettings();
    const def: FormDefinition = {
      settings,
      fields: [
        {
          id: "a",
          kind: "text",
          label: "A",
          validation: {},
          logic: [{ action: "show", match: "all", conditions: [{ field: "b", operator: "nnull" }] }],
        },
        {
          id: "b",
          kind: "text",
          label: "B",
          validation: {},
          logic: [{ action: "show", match: "all", conditions: [{ field: "a", operator: "nnull" }] }],
        },
        { id: "h", kind: "hidden", label: "H", required: true, validation: {} },
        { id: "c", kind: "checkboxes", label: "C", options: ["x"], validation: { minItems: 2 } },
        { id: "s", kind: "text", label: "  ", validation: {} },
      ],
    };
    expect(definitionProblems(def).map((p) => p.field)).toEqual([
      "fields.2.required",
      "fields.3.validation.minItems",
      "fields.4.label",
      "fields.0.logic",
    ]);
  });
});

describe("patterns the server checks answers with", () => {
  it("refuses a repeated group that repeats inside (exponential on a crafted answer)", () => {
    for (const bad of ["(a+)+$", "^(\\w*x?)*$", "(a|aa){2,}", "((ab)*c)+", "^([a-z]+\\.)*$"])
      expect(nestedRepeat(bad), bad).toBe(true);
    for (const ok of [
      "^[+0-9 ()-]{5,32}$",
      "^(\\+\\d{1,3})?[ -]?\\d+$",
      "^(mr|mrs)?\\s*[a-z]+$",
      "^[(a+)+]$",
      "^\\(a+\\)+$",
      "^[A-Z]{2}\\d{4}$",
    ])
      expect(nestedRepeat(ok), ok).toBe(false);
  });
});

describe("resetting tracking (spec §4)", () => {
  it("sets Step to 1, the five default parameters (ids 1–5, type 0, in order) and no custom ones", () => {
    const reset = resetTracking({ trackingId: "T-1" });
    expect(reset).toEqual({
      trackingId: "T-1",
      Step: 1,
      defaultParameters: DEFAULT_TRACKING_PARAMETERS,
      customParameters: [],
    });
    expect(reset.defaultParameters.map((p) => [p.id, p.type, p.name])).toEqual([
      [1, 0, "utm_source"],
      [2, 0, "utm_medium"],
      [3, 0, "utm_campaign"],
      [4, 0, "utm_term"],
      [5, 0, "utm_content"],
    ]);
  });
});
