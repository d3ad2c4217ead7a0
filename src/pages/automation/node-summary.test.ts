import { describe, expect, it } from "vitest";
import { TEXT_CONDITION_LABELS } from "../../../schemas/conditions";
import type { EntitySchema } from "../../../schemas/contract";
import { CONDITION_OPERATORS, conditionText, nodeSummary } from "./node-summary";
import { stepLabel, stepOutputFields, triggerFields, variableGroups } from "./variables";

describe("node summaries", () => {
  it("offers the spec's ten text conditions first, then the comparisons", () => {
    expect(CONDITION_OPERATORS.slice(0, 10)).toEqual(TEXT_CONDITION_LABELS);
    expect(CONDITION_OPERATORS.map(([op]) => op)).toContain("gte");
  });

  it("says a condition in words: its one rule, or how many rules it joins", () => {
    expect(conditionText({ operator: "and", value: [] })).toBe("No rule yet");
    expect(conditionText({ operator: "and", value: [{ field: "score", operator: "gt", value: 50 }] })).toBe(
      "score is greater than 50",
    );
    expect(conditionText({ operator: "or", value: [{ field: "email", operator: "null" }] })).toBe(
      "email is empty",
    );
    expect(
      conditionText({
        operator: "or",
        value: [
          { field: "a", operator: "eq", value: 1 },
          {
            operator: "and",
            value: [
              { field: "b", operator: "eq", value: 2 },
              { field: "c", operator: "nnull" },
            ],
          },
        ],
      }),
    ).toBe("Any of 3 rules");
  });

  it("names delays in the singular for one, and actions by their type", () => {
    const delay = {
      id: "delay-1",
      kind: "delay" as const,
      mode: "for" as const,
      amount: 1,
      unit: "days" as const,
    };
    expect(nodeSummary("delayNode", { config: delay }).detail).toBe("Wait 1 day");
    expect(nodeSummary("delayNode", { config: { ...delay, amount: 3 } }).detail).toBe("Wait 3 days");
    const action = {
      id: "a",
      kind: "action" as const,
      type: "send_email" as const,
      inputs: { subject: "Hi" },
    };
    expect(nodeSummary("actionNode", { config: action })).toEqual({ title: "Send email", detail: "Hi" });
    expect(nodeSummary("actionNode", { config: { ...action, type: null, inputs: {} } })).toEqual({
      title: "Action",
      detail: "Choose what it does",
    });
    expect(
      nodeSummary("triggerNode", {
        trigger: { kind: "schedule", cron: "0 9 * * 1-5", timeZone: "Asia/Kolkata" },
      }),
    ).toEqual({
      title: "On a schedule",
      detail: "0 9 * * 1-5 (Asia/Kolkata)",
    });
  });
});

describe("variables", () => {
  const clients: EntitySchema = {
    type: "object",
    properties: { name: { type: "string", title: "Name" }, created_by: { type: "string" } },
  } as unknown as EntitySchema;

  it("reads the trigger's record from its resource's schema, by trigger kind", () => {
    const schemaOf = (name: string) => (name === "clients" ? clients : undefined);
    expect(triggerFields({ kind: "client-created" }, schemaOf)).toEqual([
      { key: "trigger.name", label: "Client: Name" },
    ]);
    expect(triggerFields({ kind: "webhook" }, schemaOf)).toEqual([]);
    expect(triggerFields({ kind: "schedule" }, schemaOf).map((f) => f.key)).toEqual(["trigger.scheduledAt"]);
  });

  it("offers earlier steps' outputs by step id, named by the step", () => {
    const steps = [
      {
        id: "check",
        kind: "condition" as const,
        condition: { operator: "and" as const, value: [] },
        branches: { yes: [], no: [] },
      },
      {
        id: "call",
        kind: "action" as const,
        type: "http_request" as const,
        inputs: {},
        name: "Tell the shop",
      },
    ];
    const fields = stepOutputFields(
      steps,
      new Map([
        ["check", 1],
        ["call", 2],
      ]),
    );
    expect(fields.map((f) => f.key)).toEqual(["steps.check.branch", "steps.call.status", "steps.call.body"]);
    expect(fields[1].label).toBe("Tell the shop: status code");
    expect(stepLabel(steps[0], 1)).toBe("Step 1 (Condition)");
    expect(variableGroups([], fields).map((g) => g.label)).toEqual(["Client", "Earlier steps"]);
  });
});
