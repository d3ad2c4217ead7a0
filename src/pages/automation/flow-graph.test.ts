import { describe, expect, it } from "vitest";
import type { AutomationDefinition, Step } from "../../../schemas/automation";
import { completeAutomation } from "../../../schemas/automation-fixtures";
import {
  actionTypeName,
  definitionToGraph,
  type FlowGraph,
  type FlowNode,
  graphToDefinition,
  parseParentId,
} from "./flow-graph";
import { BRANCH_GAP, layoutFlow, NODE_SIZES } from "./flow-layout";

const action = (id: string): Step => ({ id, kind: "action", type: "add_tag", inputs: { tag: id } });
const linear = (...ids: string[]): AutomationDefinition => ({
  trigger: { kind: "manual" },
  steps: ids.map(action),
});
const node = (graph: FlowGraph, id: string) => graph.nodes.find((n) => n.id === id) as FlowNode;
const summary = (graph: FlowGraph) => graph.nodes.map((n) => [n.id, n.type, n.parentId, n.data.step]);
const links = (graph: FlowGraph) =>
  graph.edges.map((e) => `${e.source}${e.sourceHandle ? `(${e.sourceHandle})` : ""}>${e.target}`);
const centre = (n: FlowNode) => n.position.x + NODE_SIZES[n.type].width / 2;

describe("definitionToGraph", () => {
  it("draws a new flow as its trigger, a plus node and an empty node ending the list", () => {
    const graph = definitionToGraph({ trigger: { kind: "manual" }, steps: [] });
    expect(summary(graph)).toEqual([
      ["trigger", "triggerNode", null, 0],
      ["plus:trigger", "plusNode", "trigger", undefined],
      ["empty:trigger", "emptyNode", "trigger", undefined],
    ]);
    expect(links(graph)).toEqual(["trigger>plus:trigger", "plus:trigger>empty:trigger"]);
    expect(Object.keys(graph.nodes[0]).sort()).toEqual(["data", "id", "parentId", "position", "type"]);
  });

  it("puts a plus node between steps, numbers the steps, and hangs each on the step before it", () => {
    const graph = definitionToGraph(linear("a", "b"));
    expect(summary(graph)).toEqual([
      ["trigger", "triggerNode", null, 0],
      ["plus:trigger", "plusNode", "trigger", undefined],
      ["a", "actionNode", "trigger", 1],
      ["plus:a", "plusNode", "a", undefined],
      ["b", "actionNode", "a", 2],
      ["plus:b", "plusNode", "b", undefined],
      ["empty:b", "emptyNode", "b", undefined],
    ]);
    expect(links(graph)).toEqual([
      "trigger>plus:trigger",
      "plus:trigger>a",
      "a>plus:a",
      "plus:a>b",
      "b>plus:b",
      "plus:b>empty:b",
    ]);
    expect(node(graph, "a").data.config).toEqual(action("a"));
  });

  it("hangs a condition's branches on it by name, yes before no, each ended by a plus and an empty node", () => {
    const definition: AutomationDefinition = {
      trigger: { kind: "manual" },
      steps: [
        action("a"),
        {
          id: "check",
          kind: "condition",
          condition: { operator: "and", value: [{ field: "score", operator: "gt", value: 5 }] },
          branches: { yes: [action("y1"), action("y2")], no: [] },
        },
      ],
    };
    const graph = definitionToGraph(definition);
    expect(summary(graph).slice(3)).toEqual([
      ["plus:a", "plusNode", "a", undefined],
      ["check", "conditionNode", "a", 2],
      ["plus:check:yes", "plusNode", "check:yes", undefined],
      ["y1", "actionNode", "check:yes", 3],
      ["plus:y1", "plusNode", "y1", undefined],
      ["y2", "actionNode", "y1", 4],
      ["plus:y2", "plusNode", "y2", undefined],
      ["empty:y2", "emptyNode", "y2", undefined],
      ["plus:check:no", "plusNode", "check:no", undefined],
      ["empty:check:no", "emptyNode", "check:no", undefined],
    ]);
    expect(links(graph)).toContain("check(yes)>plus:check:yes");
    expect(links(graph)).toContain("check(no)>plus:check:no");
    expect(node(graph, "check").data.config).not.toHaveProperty("branches");
    expect(parseParentId("check:yes")).toEqual({ id: "check", branch: "yes" });
    expect(parseParentId("y1")).toEqual({ id: "y1" });
  });

  it("numbers depth-first through nested branches (event before timeout) and reads the same definition back", () => {
    const graph = definitionToGraph(completeAutomation());
    const numbered = graph.nodes.filter((n) => n.data.config).map((n) => [n.id, n.data.step]);
    expect(numbered.map(([, step]) => step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(node(graph, "await-reply").type).toBe("waitNode");
    expect(node(graph, "tag-engaged").parentId).toBe("await-reply:event");
    expect(node(graph, "nudge").parentId).toBe("await-reply:timeout");
    expect(graphToDefinition(graph.nodes)).toEqual(completeAutomation());
  });
});

describe("graphToDefinition", () => {
  it("reads the steps from parentId alone, whatever order the nodes come in", () => {
    const graph = definitionToGraph(linear("a", "b", "c"));
    expect(graphToDefinition([...graph.nodes].reverse())).toEqual(linear("a", "b", "c"));
  });

  it("refuses a graph without a trigger or with two steps hanging at one place", () => {
    const graph = definitionToGraph(linear("a", "b"));
    expect(() => graphToDefinition(graph.nodes.slice(1))).toThrow("The flow has no trigger");
    const twin = { ...node(graph, "b"), id: "b2", parentId: "a" };
    expect(() => graphToDefinition([...graph.nodes, twin])).toThrow("Two steps hang at a");
  });
});

describe("layoutFlow (automatic vertical layout)", () => {
  it("stacks a list top to bottom on one centre line, without overlap", () => {
    const { nodes } = definitionToGraph(linear("a", "b"));
    for (const [above, below] of nodes.slice(0, -1).map((n, i) => [n, nodes[i + 1]])) {
      expect(below.position.y).toBeGreaterThanOrEqual(above.position.y + NODE_SIZES[above.type].height);
      expect(centre(below)).toBe(centre(above));
    }
    expect(centre(nodes[0])).toBe(0);
  });

  it("sets branches side by side, yes on the left, the condition centred over them", () => {
    const definition: AutomationDefinition = {
      trigger: { kind: "manual" },
      steps: [
        {
          id: "check",
          kind: "condition",
          condition: { operator: "and", value: [] },
          branches: { yes: [action("y")], no: [action("n")] },
        },
      ],
    };
    const graph = definitionToGraph(definition);
    const [yes, no, check] = [node(graph, "y"), node(graph, "n"), node(graph, "check")];
    expect(yes.position.y).toBe(no.position.y);
    expect(no.position.x - (yes.position.x + NODE_SIZES.actionNode.width)).toBe(BRANCH_GAP);
    expect(centre(check)).toBe((centre(yes) + centre(no)) / 2);
  });

  it("is a pure function of the lists: the same lists give the same positions, a node no edge reaches keeps its own", () => {
    const graph = definitionToGraph(linear("a"));
    const loose: FlowNode = {
      id: "loose",
      type: "emptyNode",
      parentId: null,
      data: {},
      position: { x: 7, y: 9 },
    };
    const again = layoutFlow([...graph.nodes, loose], graph.edges);
    expect(again.slice(0, -1)).toEqual(graph.nodes);
    expect(again.at(-1)?.position).toEqual({ x: 7, y: 9 });
  });
});

it("spec §4: the action type name is the chosen option value with spaces replaced by underscores", () => {
  expect(actionTypeName("send email")).toBe("send_email");
  expect(actionTypeName("enrol in sequence")).toBe("enrol_in_sequence");
  expect(actionTypeName("tag")).toBe("tag");
});
