import { describe, expect, it } from "vitest";
import { AUTOMATION_TEMPLATES } from "../../../schemas/automation-templates";
import { definitionToGraph, graphToDefinition } from "./flow-graph";

describe("the ready-made flows on the canvas", () => {
  // Byte for byte: a draft made from a template opens as saved, not as "Unsaved changes".
  for (const template of AUTOMATION_TEMPLATES)
    it(`draws ${template.id} and reads it back unchanged`, () => {
      const back = graphToDefinition(definitionToGraph(template.definition).nodes);
      expect(JSON.stringify(back)).toBe(JSON.stringify(template.definition));
    });
});
