import { describe, expect, it } from "vitest";
import { type AutomationDefinition, newStep, type Step } from "../../../schemas/automation";
import { completeAutomation } from "../../../schemas/automation-fixtures";
import {
  deleteConditionKeeping,
  deleteNodeAndReconnect,
  deleteSubsequentNodes,
  insertNewStep,
  insertStep,
  stepsBefore,
  updateStep,
  updateTrigger,
} from "./flow-edits";
import { definitionToGraph, type FlowGraph, graphToDefinition } from "./flow-graph";

const action = (id: string): Step => ({ id, kind: "action", type: "add_tag", inputs: { tag: id } });
const condition = (id: string, yes: Step[], no: Step[]): Step => ({
  id,
  kind: "condition",
  condition: { operator: "and", value: [{ field: "score", operator: "gt", value: 5 }] },
  branches: { yes, no },
});
const flow = (...steps: Step[]): FlowGraph => definitionToGraph({ trigger: { kind: "manual" }, steps });
const ids = (graph: FlowGraph) => graph.nodes.map((n) => n.id);
const parentOf = (graph: FlowGraph, id: string) => graph.nodes.find((n) => n.id === id)?.parentId;
const numbers = (graph: FlowGraph) =>
  Object.fromEntries(graph.nodes.filter((n) => n.data.config).map((n) => [n.id, n.data.step]));
/** The step ids of the list hanging at each place, as the definition holds them. */
const shape = (graph: FlowGraph): unknown => {
  const of = (steps: Step[]): unknown[] =>
    steps.map((s) =>
      "branches" in s
        ? { [s.id]: Object.fromEntries(Object.entries(s.branches).map(([b, l]) => [b, of(l)])) }
        : s.id,
    );
  return of(graphToDefinition(graph.nodes).steps);
};

describe("spec §4: deleting a node reconnects its following node to its preceding one", () => {
  it("in the middle of a list: the next step hangs on the one before, through one plus node", () => {
    const graph = deleteNodeAndReconnect(flow(action("a"), action("b"), action("c")), "b");
    expect(ids(graph)).not.toContain("b");
    expect(parentOf(graph, "c")).toBe("a");
    expect(graph.edges.map((e) => `${e.source}>${e.target}`)).toEqual(
      expect.arrayContaining(["a>plus:a", "plus:a>c"]),
    );
    expect(graph.edges.some((e) => e.source === "b" || e.target === "b")).toBe(false);
  });

  it("at the start, the end, and inside a branch", () => {
    expect(parentOf(deleteNodeAndReconnect(flow(action("a"), action("b")), "a"), "b")).toBe("trigger");
    const end = deleteNodeAndReconnect(flow(action("a"), action("b")), "b");
    expect(ids(end).slice(-3)).toEqual(["a", "plus:a", "empty:a"]);
    const branch = deleteNodeAndReconnect(
      flow(condition("c", [action("y1"), action("y2")], [action("n1")])),
      "y1",
    );
    expect(parentOf(branch, "y2")).toBe("c:yes");
    expect(shape(branch)).toEqual([{ c: { yes: ["y2"], no: ["n1"] } }]);
  });

  it("asks which branch to keep before deleting a condition, and leaves the trigger, plus and empty nodes alone", () => {
    const graph = flow(condition("c", [], []));
    expect(() => deleteNodeAndReconnect(graph, "c")).toThrow("Choose which branch to keep");
    for (const id of ["trigger", "plus:trigger", "empty:c:no", "nope"])
      expect(deleteNodeAndReconnect(graph, id)).toBe(graph);
  });
});

describe("spec §4: deleting subsequent nodes removes the node and everything downstream", () => {
  it("removes the node, the steps after it and the branches below them; the preceding step ends the list", () => {
    const graph = deleteSubsequentNodes(
      flow(action("a"), action("b"), action("c"), condition("d", [action("y")], [action("n")])),
      "b",
    );
    expect(shape(graph)).toEqual(["a"]);
    expect(ids(graph)).toEqual(["trigger", "plus:trigger", "a", "plus:a", "empty:a"]);
  });

  it("inside a branch, only that branch is cut; on a condition, both its branches go", () => {
    const start = flow(condition("c", [action("y1"), action("y2"), action("y3")], [action("n1")]));
    expect(shape(deleteSubsequentNodes(start, "y2"))).toEqual([{ c: { yes: ["y1"], no: ["n1"] } }]);
    expect(shape(deleteSubsequentNodes(start, "c"))).toEqual([]);
    expect(deleteSubsequentNodes(start, "trigger")).toBe(start);
  });
});

describe("spec §4: inserting or removing a step renumbers the later steps by one", () => {
  it("inserting: the new step takes the plus node's place, later steps go one up, earlier ones keep theirs", () => {
    const before = flow(action("a"), action("b"), action("c"));
    const after = insertStep(before, "plus:a", newStep("delay", "wait"));
    expect(numbers(before)).toEqual({ a: 1, b: 2, c: 3 });
    expect(numbers(after)).toEqual({ a: 1, wait: 2, b: 3, c: 4 });
    expect(parentOf(after, "wait")).toBe("a");
    expect(parentOf(after, "b")).toBe("wait");
  });

  it("removing: later steps go one down, across branches too (depth-first, yes before no)", () => {
    const before = flow(action("a"), condition("c", [action("y")], [action("n")]));
    expect(numbers(before)).toEqual({ a: 1, c: 2, y: 3, n: 4 });
    expect(numbers(deleteNodeAndReconnect(before, "a"))).toEqual({ c: 1, y: 2, n: 3 });
    expect(numbers(deleteNodeAndReconnect(before, "y"))).toEqual({ a: 1, c: 2, n: 3 });
  });
});

describe("inserting at a plus node", () => {
  it("a condition in the middle of a list takes the later steps into its yes branch", () => {
    const graph = insertStep(flow(action("a"), action("b")), "plus:trigger", newStep("condition", "check"));
    expect(shape(graph)).toEqual([{ check: { yes: ["a", "b"], no: [] } }]);
    expect(parentOf(graph, "a")).toBe("check:yes");
  });

  it("at a branch's plus node, first in that branch; a wait for an event takes the rest into its event branch", () => {
    const start = flow(condition("c", [action("y")], []));
    expect(shape(insertStep(start, "plus:c:no", action("n")))).toEqual([{ c: { yes: ["y"], no: ["n"] } }]);
    const waited = insertStep(start, "plus:c:yes", newStep("wait", "w"));
    expect(shape(waited)).toEqual([{ c: { yes: [{ w: { event: ["y"], timeout: [] } }], no: [] } }]);
  });

  it("gives a new step an id not yet taken, and refuses a taken id or a node that is not a plus", () => {
    const start = flow(action("action-1"));
    const { graph, id } = insertNewStep(start, "plus:action-1", "action");
    expect(id).toBe("action-2");
    expect(shape(graph)).toEqual(["action-1", "action-2"]);
    expect(() => insertStep(start, "plus:trigger", action("action-1"))).toThrow("already");
    expect(() => insertStep(start, "action-1", action("x"))).toThrow("not a plus node");
  });
});

describe("deleting a condition keeps the chosen branch", () => {
  const start = () => flow(action("a"), condition("c", [action("y1"), action("y2")], [action("n1")]));

  it("the kept branch reconnects to the preceding node; the other is removed", () => {
    const keptYes = deleteConditionKeeping(start(), "c", "yes");
    expect(shape(keptYes)).toEqual(["a", "y1", "y2"]);
    expect(parentOf(keptYes, "y1")).toBe("a");
    expect(ids(keptYes)).not.toContain("n1");
    const keptNo = deleteConditionKeeping(start(), "c", "no");
    expect(shape(keptNo)).toEqual(["a", "n1"]);
    expect(numbers(keptNo)).toEqual({ a: 1, n1: 2 });
  });

  it("refuses a node that does not branch, or a branch it does not have", () => {
    expect(() => deleteConditionKeeping(start(), "a", "yes")).toThrow("does not branch");
    expect(() => deleteConditionKeeping(start(), "c", "timeout")).toThrow("has no timeout branch");
  });
});

describe("the sidebar's saves", () => {
  it("change a step's fields, never its id, kind or branches, and the trigger's", () => {
    const start = flow(action("a"));
    const graph = updateStep(start, "a", { id: "z", kind: "delay", inputs: { tag: "vip" } } as never);
    expect(graphToDefinition(graph.nodes).steps).toEqual([{ ...action("a"), inputs: { tag: "vip" } }]);
    const trigger = updateTrigger(start, { kind: "schedule", cron: "0 9 * * *", timeZone: "UTC" });
    expect(graphToDefinition(trigger.nodes).trigger).toEqual({
      kind: "schedule",
      cron: "0 9 * * *",
      timeZone: "UTC",
    });
  });

  it("know the steps a run passes before a step, whose outputs it may use", () => {
    const definition: AutomationDefinition = completeAutomation();
    expect(stepsBefore(definition, "nudge").map((s) => s.id)).toEqual([
      "check-score",
      "welcome",
      "pause",
      "await-reply",
    ]);
    expect(stepsBefore(definition, "enrol").map((s) => s.id)).toEqual(["check-score", "later"]);
    expect(stepsBefore(definition, "check-score")).toEqual([]);
  });
});
