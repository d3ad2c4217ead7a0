import { describe, expect, it } from "vitest";
import { completeAutomation } from "../../../schemas/automation-fixtures";
import { automationFlow } from "./flow";
import { triggerFits } from "./triggers";

const flow = automationFlow;
const def = completeAutomation();

describe("automationFlow", () => {
  it("starts at the first step and names each step's executor (its kind, or an action's type)", () => {
    expect(flow.first(def)).toBe("check-score");
    expect(flow.step(def, "check-score")?.type).toBe("condition");
    expect(flow.step(def, "pause")?.type).toBe("delay");
    expect(flow.step(def, "await-reply")?.type).toBe("wait");
    expect(flow.step(def, "notify")?.type).toBe("http_request");
    expect(flow.step(def, "nope")).toBeUndefined();
    expect(flow.first({ trigger: { kind: "manual" }, steps: [] })).toBeNull();
  });

  it("follows a condition's yes or no branch by its output", () => {
    expect(flow.next(def, "check-score", { branch: "yes" })).toBe("welcome");
    expect(flow.next(def, "check-score", { branch: "no" })).toBe("later");
  });

  it("goes down a branch's list, and ends the run where the list ends", () => {
    expect(flow.next(def, "welcome", {})).toBe("pause");
    expect(flow.next(def, "pause", {})).toBe("await-reply");
    expect(flow.next(def, "later", {})).toBe("enrol");
    expect(flow.next(def, "mark", {})).toBeNull();
  });

  it("follows a wait's event or timeout branch by the engine's resume output", () => {
    expect(flow.next(def, "await-reply", { resumedBy: "event", event: "email-replied", data: null })).toBe(
      "tag-engaged",
    );
    expect(flow.next(def, "await-reply", { resumedBy: "timeout" })).toBe("nudge");
    expect(flow.next(def, "tag-engaged", {})).toBeNull();
    expect(flow.next(def, "notify", {})).toBeNull();
  });

  it("ends a run at an empty branch", () => {
    const empty = {
      trigger: { kind: "manual" as const },
      steps: [
        {
          id: "c",
          kind: "condition" as const,
          condition: { operator: "and" as const, value: [] },
          branches: { yes: [], no: [] },
        },
      ],
    };
    expect(flow.next(empty, "c", { branch: "yes" })).toBeNull();
  });
});

describe("triggerFits", () => {
  const event = (kind: "opportunity-stage-changed" | "form-submitted", record: Record<string, unknown>) => ({
    kind,
    record,
  });
  it("reads each kind's own field; empty means any", () => {
    expect(
      triggerFits(
        { kind: "opportunity-stage-changed", stage: "won" },
        event("opportunity-stage-changed", { stage: "won" }),
      ),
    ).toBe(true);
    expect(
      triggerFits(
        { kind: "opportunity-stage-changed", stage: "won" },
        event("opportunity-stage-changed", { stage: "new" }),
      ),
    ).toBe(false);
    expect(
      triggerFits(
        { kind: "opportunity-stage-changed" },
        event("opportunity-stage-changed", { stage: "new" }),
      ),
    ).toBe(true);
    expect(
      triggerFits({ kind: "form-submitted", formId: "f1" }, event("form-submitted", { formId: "f2" })),
    ).toBe(false);
    expect(triggerFits({ kind: "client-created" }, event("form-submitted", { formId: "f2" }))).toBe(false);
  });
});
