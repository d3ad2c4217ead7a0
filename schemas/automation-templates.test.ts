import { describe, expect, it } from "vitest";
import { TRIGGER_ID, walkSteps } from "./automation";
import { publishProblems, structureProblems } from "./automation-checks";
import { automationDefinitionSchema } from "./automation-schema";
import {
  AUTOMATION_TEMPLATES,
  TEMPLATE_CATEGORIES,
  templateById,
  valueAt,
  withChoices,
} from "./automation-templates";
import { fieldErrors } from "./error-messages";
import { createAjv } from "./validator-config";

const validate = createAjv({ coerce: false }).compile(automationDefinitionSchema);
const errorsOf = (value: unknown) => (validate(value) ? [] : fieldErrors(validate.errors ?? []));

/** A value a person would choose for each kind of choice (the server test uses real records). */
const sample = (field: string) =>
  field.endsWith("timeZone")
    ? "Asia/Kolkata"
    : field.endsWith(".to")
      ? "team@example.com"
      : "00000000-0000-4000-8000-000000000001";

describe("the ready-made flows", () => {
  it("offers at least the six flows of issue 30, with unique ids, in known categories", () => {
    expect(AUTOMATION_TEMPLATES.length).toBeGreaterThanOrEqual(6);
    expect(new Set(AUTOMATION_TEMPLATES.map((t) => t.id)).size).toBe(AUTOMATION_TEMPLATES.length);
    expect(AUTOMATION_TEMPLATES.map((t) => t.definition.trigger.kind)).toEqual(
      expect.arrayContaining([
        "form-submitted",
        "cart-abandoned",
        "proposal-accepted",
        "client-created",
        "opportunity-stage-changed",
        "schedule",
      ]),
    );
    for (const t of AUTOMATION_TEMPLATES) {
      expect(TEMPLATE_CATEGORIES).toContain(t.category);
      expect(t.name.length).toBeLessThanOrEqual(120);
      expect(t.description.length).toBeLessThanOrEqual(1000);
      expect(templateById(t.id)).toBe(t);
    }
    expect(templateById("nope")).toBeUndefined();
  });

  for (const template of AUTOMATION_TEMPLATES) {
    describe(template.id, () => {
      it("passes the definition's schema and has a sound structure", () => {
        expect(errorsOf(template.definition)).toEqual([]);
        expect(structureProblems(template.definition)).toEqual([]);
      });

      it("cannot be published only for its documented choices, each on its node", () => {
        const problems = publishProblems(template.definition);
        expect(problems.map((p) => [p.nodeId, p.field])).toEqual(
          template.choices.map((c) => [c.nodeId, c.field]),
        );
        const ids = new Set([TRIGGER_ID, ...walkSteps(template.definition.steps).map((s) => s.id)]);
        for (const c of template.choices) {
          expect(ids).toContain(c.nodeId);
          expect(c.label).toMatch(/^[A-Z]/);
        }
      });

      it("publishes cleanly once its choices are filled, leaving the template itself as it was", () => {
        const before = JSON.stringify(template.definition);
        const filled = withChoices(
          template.definition,
          Object.fromEntries(template.choices.map((c) => [c.field, sample(c.field)])),
        );
        expect(publishProblems(filled)).toEqual([]);
        expect(errorsOf(filled)).toEqual([]);
        for (const c of template.choices) expect(valueAt(filled, c.field)).toBe(sample(c.field));
        expect(JSON.stringify(template.definition)).toBe(before);
      });
    });
  }
});
