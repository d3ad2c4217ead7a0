import { describe, expect, it } from "vitest";
import {
  ACTION_OPTIONS,
  ACTION_TYPES,
  type ActionStep,
  type ActionType,
  type AutomationDefinition,
  actionTypeName,
  cleanInputs,
  emptyAutomation,
  newStep,
  newStepId,
  stepNumbers,
  waitEventOf,
} from "./automation";
import { publishProblems, structureProblems } from "./automation-checks";
import { completeAutomation } from "./automation-fixtures";
import { automationDefinitionSchema } from "./automation-schema";
import { fieldErrors } from "./error-messages";
import { createAjv } from "./validator-config";

const validate = createAjv({ coerce: false }).compile(automationDefinitionSchema);
const errorsOf = (value: unknown) => (validate(value) ? [] : fieldErrors(validate.errors ?? []));

describe("the stored automation definition", () => {
  it("stores action types as the option values with underscores (spec §4)", () => {
    expect(ACTION_OPTIONS.map((o) => actionTypeName(o.value))).toEqual([...ACTION_TYPES]);
    expect(actionTypeName("enrol in sequence")).toBe("enrol_in_sequence");
  });

  it("numbers steps depth-first, yes branch before no, event before timeout", () => {
    expect([...stepNumbers(completeAutomation().steps)]).toEqual([
      ["check-score", 1],
      ["welcome", 2],
      ["pause", 3],
      ["await-reply", 4],
      ["tag-engaged", 5],
      ["nudge", 6],
      ["call-task", 7],
      ["notify", 8],
      ["later", 9],
      ["enrol", 10],
      ["mark", 11],
    ]);
  });

  it("gives new steps ids of their kind not yet taken, and empty drafts of each kind", () => {
    expect(newStepId("wait", ["wait-1"])).toBe("wait-2");
    expect(newStep("condition", "condition-1")).toMatchObject({ branches: { yes: [], no: [] } });
    expect(cleanInputs("add_tag", { tag: "vip", subject: "left over" })).toEqual({ tag: "vip" });
  });
});

describe("the automation JSON Schema", () => {
  it("accepts a complete definition and an empty draft", () => {
    expect(errorsOf(completeAutomation())).toEqual([]);
    expect(errorsOf(emptyAutomation("manual"))).toEqual([]);
    expect(errorsOf({ trigger: { kind: "client-created" }, steps: [newStep("action", "action-1")] })).toEqual(
      [],
    );
  });

  it("refuses an unknown trigger, step kind, comparator and field, per field in words", () => {
    const bad = completeAutomation() as unknown as { trigger: Record<string, unknown>; steps: unknown[] };
    bad.trigger.kind = "lead_born";
    bad.trigger.filter = [{ field: "x", operator: "soundslike", value: "y" }];
    bad.steps.push({ id: "Bad Id", kind: "teleport" });
    (bad.steps[0] as Record<string, unknown>).colour = "red";
    const errors = errorsOf(bad);
    const fields = errors.map((e) => e.field);
    expect(fields).toContain("trigger.kind");
    expect(fields).toContain("trigger.filter.0.operator");
    expect(fields).toContain("steps.1.id");
    expect(fields).toContain("steps.1.kind");
    expect(fields).toContain("steps.0.colour");
    expect(errors.find((e) => e.field === "steps.1.id")?.message).toBe(
      "Step ID must start with a lower-case letter and hold only lower-case letters, digits and dashes",
    );
  });

  it("refuses a condition without its branches, wrong branch names and bad nested steps", () => {
    const condition = { id: "c", kind: "condition", condition: { operator: "and", value: [] } };
    expect(errorsOf({ trigger: { kind: "manual" }, steps: [condition] }).map((e) => e.field)).toContain(
      "steps.0.branches",
    );
    const wrong = { ...condition, branches: { yes: [], maybe: [] } };
    expect(errorsOf({ trigger: { kind: "manual" }, steps: [wrong] }).length).toBeGreaterThan(0);
    const nested = completeAutomation() as unknown as { steps: Array<{ branches: { yes: unknown[] } }> };
    nested.steps[0].branches.yes.push({ id: "x", kind: "delay", mode: "for", unit: "fortnights" });
    expect(errorsOf(nested).map((e) => e.field)).toEqual(["steps.0.branches.yes.3.unit"]);
  });

  it("refuses a condition step whose condition is a single rule instead of a group", () => {
    const step = { id: "c", kind: "condition", condition: { field: "a", operator: "eq", value: 1 } };
    const definition = { trigger: { kind: "manual" }, steps: [{ ...step, branches: { yes: [], no: [] } }] };
    expect(errorsOf(definition).map((e) => e.field)).toContain("steps.0.condition.operator");
  });
});

describe("publishProblems", () => {
  it("has nothing to say about a complete flow", () => {
    expect(publishProblems(completeAutomation())).toEqual([]);
  });

  it("names each incomplete node with its number and a sentence a person can act on", () => {
    const definition: AutomationDefinition = {
      trigger: { kind: "form-submitted" },
      steps: [
        {
          id: "check",
          kind: "condition",
          condition: { operator: "and", value: [] },
          branches: { yes: [], no: [] },
        },
      ],
    };
    const yes = (definition.steps[0] as { branches: { yes: unknown[] } }).branches.yes;
    yes.push({ id: "act", kind: "action", type: null, inputs: {} });
    yes.push({
      id: "mail",
      kind: "action",
      type: "send_email",
      inputs: { to: "{{client.email}}", body: "Hi" },
    });
    expect(publishProblems(definition)).toEqual([
      { nodeId: "trigger", field: "trigger.formId", message: "Trigger (Form submitted): choose the form" },
      { nodeId: "check", field: "steps.0.condition", message: "Step 1 (Condition): add at least one rule" },
      {
        nodeId: "act",
        field: "steps.0.branches.yes.0.type",
        message: "Step 2 (Action): choose what this action does",
      },
      {
        nodeId: "mail",
        field: "steps.0.branches.yes.1.inputs.subject",
        message: "Step 3 (Send email): an email needs a subject",
      },
    ]);
  });

  it("refuses an empty flow, rules without a field or value, and bad delays", () => {
    expect(publishProblems(emptyAutomation()).map((p) => p.message)).toEqual([
      "Add at least one step after the trigger",
    ]);
    const definition: AutomationDefinition = {
      trigger: {
        kind: "client-created",
        filter: [{ operator: "or", value: [{ field: "", operator: "eq", value: "x" }] }],
      },
      steps: [
        {
          id: "c",
          kind: "condition",
          condition: {
            operator: "and",
            value: [
              { field: "score", operator: "gt" },
              { operator: "or", value: [] },
            ],
          },
          branches: {
            yes: [
              { id: "d0", kind: "delay", mode: "for", amount: 0, unit: "hours" },
              { id: "d1", kind: "delay", mode: "until", until: "2030-02-30T09:00", timeZone: "Mars/Olympus" },
            ],
            no: [
              {
                id: "w",
                kind: "wait",
                event: null,
                timeout: {},
                branches: { event: [], timeout: [] },
              },
            ],
          },
        },
      ],
    };
    expect(publishProblems(definition).map((p) => [p.nodeId, p.field, p.message])).toEqual([
      [
        "trigger",
        "trigger.filter.0.value.0.field",
        "Trigger (Client created): a rule has no field: choose the field it reads",
      ],
      [
        "c",
        "steps.0.condition.value.0.value",
        'Step 1 (Condition): the rule on "score" has no value to compare with',
      ],
      [
        "c",
        "steps.0.condition.value.1.value",
        "Step 1 (Condition): a group has no rules: add one or remove the group",
      ],
      ["d0", "steps.0.branches.yes.0.amount", "Step 2 (Delay): wait at least 1 minute"],
      ["d1", "steps.0.branches.yes.1.until", "Step 3 (Delay): enter the date and time to wait until"],
      ["d1", "steps.0.branches.yes.1.timeZone", "Step 3 (Delay): choose the time zone"],
      ["w", "steps.0.branches.no.0.event", "Step 4 (Wait for event): choose the event to wait for"],
      [
        "w",
        "steps.0.branches.no.0.timeout.amount",
        "Step 4 (Wait for event): timeout: enter how long to wait",
      ],
    ]);
  });

  it("checks each action type's inputs: an HTTP call's URL, headers and JSON body, a schedule's cron", () => {
    const http: ActionStep = {
      id: "call",
      kind: "action",
      type: "http_request",
      inputs: { method: "GET", url: "ftp://x", headers: [{ name: "Bad Header", value: "1" }], body: "{}" },
    };
    const post: ActionStep = {
      ...http,
      id: "post",
      inputs: { method: "POST", url: "https://a.example", body: "{oops" },
    };
    const definition: AutomationDefinition = {
      trigger: { kind: "schedule", cron: "0 25 * * *", timeZone: "Europe/Paris" },
      steps: [
        http,
        post,
        { id: "upd", kind: "action", type: "update_record", inputs: { resource: "client" } },
      ],
    };
    expect(publishProblems(definition).map((p) => p.message)).toEqual([
      'Trigger (On a schedule): the hour part "25" is not between 0 and 23',
      "Step 1 (HTTP request): the URL must be a full web address starting with http:// or https://",
      'Step 1 (HTTP request): "Bad Header" is not a header name',
      "Step 1 (HTTP request): a GET request sends no body: remove it or choose POST",
      "Step 2 (HTTP request): the body is not valid JSON",
      "Step 3 (Update record): enter which record to update",
      "Step 3 (Update record): set at least one field",
    ]);
  });

  it("refuses repeated ids and steps after a branching step (structure, checked on save too)", () => {
    const definition = completeAutomation();
    definition.steps.push({ id: "welcome", kind: "delay", mode: "for", amount: 1, unit: "days" });
    definition.steps.push({ id: "fax", kind: "action", type: "send_fax" as ActionType, inputs: {} });
    expect(structureProblems(definition).map((p) => [p.nodeId, p.field])).toEqual([
      ["check-score", "steps.0.kind"],
      ["welcome", "steps.1.id"],
      ["fax", "steps.2.type"],
    ]);
    expect(structureProblems(definition)[0].message).toBe(
      "Step 1 (Condition): steps after a condition never run: move them into a branch",
    );
  });
});

describe("waitEventOf", () => {
  it("reads a wait on one email's open or click as its event, and nothing else as one", () => {
    expect(waitEventOf("email-opened:0b9d3f0e-8c4a-4f57-9a43-2a1f3c1b7e11")).toBe("email-opened");
    expect(waitEventOf("email-clicked")).toBe("email-clicked");
    expect(waitEventOf("form-submitted")).toBe("form-submitted");
    expect(waitEventOf("email-bounced")).toBeNull();
  });
});
