import { describe, expect, it } from "vitest";
import type { TestStepResult } from "./test-api";
import { testMarkOf, testMarks } from "./test-results";

const result = (partial: Partial<TestStepResult>): TestStepResult => ({
  id: "s",
  number: 1,
  title: "Step",
  status: "passed",
  inputs: {},
  outputs: {},
  ...partial,
});

describe("test marks on the canvas", () => {
  it("says each status in a word, and the branch taken", () => {
    expect(testMarkOf(result({ status: "passed" })).text).toBe("Passed");
    expect(testMarkOf(result({ status: "failed" })).text).toBe("Failed");
    expect(testMarkOf(result({ status: "skipped" })).text).toBe("Skipped");
    expect(testMarkOf(result({ status: "branch", branch: "no" })).text).toBe("Took No");
    expect(testMarkOf(result({ status: "skipped", branch: "event" })).text).toBe("Skipped, then Event");
  });

  it("marks each tested node by id, none without a test", () => {
    const marks = testMarks({
      sample: { kind: "record", id: "x" },
      steps: [result({ id: "trigger" }), result({ id: "a", status: "failed" })],
      sent: [],
      outputs: {},
      testedAt: "2026-11-29T00:00:00.000Z",
    });
    expect([...marks.keys()]).toEqual(["trigger", "a"]);
    expect(marks.get("a")?.status).toBe("failed");
    expect(testMarks(null).size).toBe(0);
  });
});

describe("typed sample fields", () => {
  it("reads field = value lines, leaving out lines without a field", async () => {
    const { otherValues } = await import("./test-sample-dialog");
    expect(otherValues("order.total = 1200\nname=Asha = A\n= nothing\nno equals")).toEqual({
      "order.total": "1200",
      name: "Asha = A",
    });
  });
});
