import { describe, expect, it } from "vitest";
import { matches } from "../../../schemas/conditions";
import { conditionRecord, fillVariables, type RunScope, variableValues } from "./variables";

const scope: RunScope = {
  trigger: { company: "Acme", score: 72, tags: ["vip"] },
  client: { id: "c1", name: "Asha Rao", email: "asha@example.com", custom: { plan: "gold" } },
  steps: { "check-score": { branch: "yes" }, notify: { status: 201, body: { id: 9, items: ["a", "b"] } } },
};
const values = variableValues(scope);

describe("automation variables", () => {
  it("fill the trigger's record, the client (with the CRM's merge fields) and earlier steps' outputs", () => {
    expect(fillVariables("{{trigger.company}} / {{trigger.score}}", values)).toBe("Acme / 72");
    expect(fillVariables("Hi {{client.first_name}} ({{client.email}}, {{client.plan}})", values)).toBe(
      "Hi Asha (asha@example.com, gold)",
    );
    expect(
      fillVariables(
        "{{steps.check-score.branch}} {{steps.notify.body.id}} {{steps.notify.body.items.1}}",
        values,
      ),
    ).toBe("yes 9 b");
  });

  it("read objects and lists as JSON, unknown ones as empty or their fallback", () => {
    expect(fillVariables("{{trigger.tags}}", values)).toBe('["vip"]');
    expect(fillVariables("[{{trigger.nope}}] {{client.job_title | friend}}", values)).toBe("[] friend");
  });

  it("reach six levels below their root, and a key with dots of its own", () => {
    const deep = variableValues({
      trigger: { a: { b: { c: { d: { e: { f: { g: 1 } } } } } }, "x.y": "dotted" },
      client: null,
      steps: {},
    });
    expect(fillVariables("{{trigger.a.b.c.d.e.f}}", deep)).toBe('{"g":1}');
    expect(fillVariables("[{{trigger.a.b.c.d.e.f.g}}]", deep)).toBe("[]");
    expect(fillVariables("{{trigger.x.y}} [{{client.name}}]", deep)).toBe("dotted []");
  });

  it("are what conditions read: the record's own fields, and steps and client by path", () => {
    const record = conditionRecord(scope);
    expect(matches(record, [{ field: "score", operator: "gte", value: 50 }])).toBe(true);
    expect(matches(record, [{ field: "steps.notify.status", operator: "eq", value: 201 }])).toBe(true);
    expect(matches(record, [{ field: "client.email", operator: "endswith", value: "@example.com" }])).toBe(
      true,
    );
    expect(matches(record, [{ field: "trigger.company", operator: "eq", value: "Other" }])).toBe(false);
  });
});
