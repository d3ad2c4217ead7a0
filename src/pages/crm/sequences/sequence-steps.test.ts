import { describe, expect, it } from "vitest";
import type { SequenceStep } from "../../../../schemas/crm-sequence-steps";
import {
  enrolmentPlace,
  enrolSummary,
  moveStep,
  newStep,
  newStepKey,
  problemsByStep,
  stepSummary,
  stepTitle,
} from "./sequence-steps";

const steps: SequenceStep[] = [
  { key: "a", type: "email", subject: "Hi", body: "Hello" },
  { key: "b", type: "wait", amount: 2, unit: "days" },
  { key: "c", type: "task", title: "Call", dueInDays: 1, assignee: "owner" },
];

describe("sequence steps in the builder", () => {
  it("gives a new step a key no other step has, of the server's pattern", () => {
    let n = 0;
    const fixed = () => [0, 0, 0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5][n++ % 12];
    const taken: SequenceStep[] = [{ key: "s-aaaaaa", type: "sms", body: "x" }];
    expect(newStepKey(taken, fixed)).toBe("s-ssssss");
    expect(newStep("wait", steps)).toMatchObject({ type: "wait", amount: 1, unit: "days" });
    expect(newStep("task", steps)).toMatchObject({ type: "task", assignee: "owner", dueInDays: 1 });
    expect(newStep("email", steps).key).toMatch(/^s-[a-z0-9]{6}$/);
  });

  it("moves a step up and down, within the list's ends", () => {
    expect(moveStep(steps, 0, 2).map((s) => s.key)).toEqual(["b", "c", "a"]);
    expect(moveStep(steps, 2, 0).map((s) => s.key)).toEqual(["c", "a", "b"]);
    expect(moveStep(steps, 1, 9).map((s) => s.key)).toEqual(["a", "c", "b"]);
  });

  it("names a step by what it does, or by what it still needs", () => {
    expect(stepTitle(steps[1])).toBe("Wait 2 days");
    expect(stepTitle({ key: "x", type: "email", subject: " ", body: "" })).toBe("Email: (no subject yet)");
    expect(stepTitle({ key: "w", type: "wait", amount: 1, unit: "weeks" })).toBe("Wait 1 week");
    expect(stepSummary(steps[0])).toBe("Hi");
    expect(stepSummary(steps[1])).toBe("Wait 2 days");
    expect(stepSummary({ key: "x", type: "sms", body: "" })).toBe("(no message yet)");
  });

  it("files problems under their step and field, in the field's own words", () => {
    const bad: SequenceStep[] = [
      { key: "a", type: "email", subject: "", body: "Hi {{client.nmae}}" },
      { key: "w", type: "wait", amount: 1, unit: "days" },
    ];
    const found = problemsByStep(bad, [
      { field: "steps.0.templateId", message: "Step 1: this template no longer exists" },
    ]);
    expect(Object.fromEntries(found.get("a") ?? [])).toEqual({
      subject: ["Subject is required"],
      body: ["Message has an unknown merge field: {{client.nmae}}"],
      templateId: ["this template no longer exists"],
    });
    expect(found.get("w")?.get("type")).toEqual([
      "a wait at the end does nothing: add a step after it, or remove it",
    ]);
  });

  it("says where an enrolment is and what an enrolment did", () => {
    expect(
      enrolmentPlace({ status: "active", step: { index: 1, count: 3, type: "wait", label: "Wait 2 days" } }),
    ).toBe("Step 2 of 3 · Wait 2 days");
    expect(enrolmentPlace({ status: "finished", step: null })).toBe("Finished");
    expect(
      enrolSummary(
        { enrolled: [{ clientId: "1", runId: "r" }], alreadyActive: ["2", "3"], notFound: ["4"] },
        "Welcome",
      ),
    ).toBe("1 client enrolled in Welcome; 2 were in it already; 1 no longer exists");
    expect(enrolSummary({ enrolled: [], alreadyActive: ["2"], notFound: [] }, "Welcome")).toBe(
      "No client was enrolled; 1 was in it already",
    );
  });
});
