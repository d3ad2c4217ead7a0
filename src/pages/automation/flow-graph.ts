/**
 * The automation canvas as data (spec §3 "Automation nodes: id, type, parentId, data (including
 * the step number), position"): a definition (schemas/automation.ts) drawn as nodes and edges,
 * and read back. Pure; the canvas hands these to `@xyflow/react`.
 *
 * How a definition is drawn, top to bottom:
 * - one `triggerNode` (id "trigger", step 0);
 * - before every step a `plusNode` (insert here), and each step as a node of its kind, its id
 *   the step's id (`conditionNode`, `delayNode`, `waitNode`, `actionNode`);
 * - a list that ends without a branching step ends with a `plusNode` then an `emptyNode`;
 * - a branching step's branches hang below it side by side (yes left of no, event left of
 *   timeout), each a list drawn the same way, the branch named on its edge (`sourceHandle`).
 *
 * `parentId` says where a node hangs, skipping plus nodes: the step (or trigger) before it, or
 * `<step id>:<branch>` for the first node of a branch. A plus node's parentId is where a step
 * inserted there goes. The definition is read back from the nodes alone (parentId and data);
 * edges are derived, so an edit is "definition in, definition out" (flow-edits.ts).
 *
 * Note for the canvas: xyflow reads a node's own `parentId` as a sub-flow parent, so pass it
 * to xyflow in `data`, not as the node's field.
 */
import {
  type AutomationDefinition,
  type Branch,
  type BranchingStep,
  branchesOf,
  branchSteps,
  isBranching,
  type Step,
  stepNumbers,
  TRIGGER_ID,
} from "../../../schemas/automation";
import { layoutFlow } from "./flow-layout";
import {
  type FlowEdge,
  type FlowGraph,
  type FlowNode,
  type FlowNodeData,
  type FlowNodeType,
  STEP_NODE_TYPES,
  type StepConfig,
} from "./flow-types";

export { actionTypeName } from "../../../schemas/automation";
export type { FlowEdge, FlowGraph, FlowNode, FlowNodeData, FlowNodeType, StepConfig } from "./flow-types";
export { NODE_TYPES, STEP_NODE_TYPES } from "./flow-types";

/** The parentId of a branch's first node: `check:yes`. */
export const branchParentId = (stepId: string, branch: Branch) => `${stepId}:${branch}`;

/**
 * A parentId read back: the node it names, and the branch when it is one.
 *
 * @example
 * parseParentId("check:no"); // { id: "check", branch: "no" }
 */
export function parseParentId(parentId: string): { id: string; branch?: Branch } {
  const [id, branch] = parentId.split(":");
  return branch ? { id, branch: branch as Branch } : { id };
}

/** The id of the plus node (`plus:<parentId>`) and of the empty node (`empty:<parentId>`) hanging at `parentId`. */
export const plusNodeId = (parentId: string) => `plus:${parentId}`;
export const emptyNodeId = (parentId: string) => `empty:${parentId}`;

export const isStepNode = (node: FlowNode) => Boolean(node.data.config);

function withoutBranches(step: Step): StepConfig {
  if (!isBranching(step)) return { ...step };
  const { branches: _branches, ...config } = step;
  return config;
}

/**
 * The nodes and edges that draw `definition`, laid out.
 *
 * @example
 * definitionToGraph({ trigger: { kind: "manual" }, steps: [] }).nodes.map((n) => n.id);
 * // ["trigger", "plus:trigger", "empty:trigger"]
 */
export function definitionToGraph(definition: AutomationDefinition): FlowGraph {
  const numbers = stepNumbers(definition.steps);
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  const add = (id: string, type: FlowNodeType, parentId: string | null, data: FlowNodeData = {}) =>
    nodes.push({ id, type, parentId, data, position: { x: 0, y: 0 } });
  const link = (source: string, target: string, sourceHandle?: Branch) =>
    edges.push({
      id: `${source}${sourceHandle ? `:${sourceHandle}` : ""}->${target}`,
      source,
      target,
      ...(sourceHandle ? { sourceHandle } : {}),
    });

  /** Draws `steps` hanging at `parentId`, below node `from` (its `handle` when a branch). */
  const drawList = (steps: readonly Step[], parentId: string, from: string, handle?: Branch) => {
    let at = parentId;
    let source = from;
    let sourceHandle = handle;
    for (const step of steps) {
      add(plusNodeId(at), "plusNode", at);
      link(source, plusNodeId(at), sourceHandle);
      add(step.id, STEP_NODE_TYPES[step.kind], at, {
        step: numbers.get(step.id),
        config: withoutBranches(step),
      });
      link(plusNodeId(at), step.id);
      if (isBranching(step)) {
        for (const branch of branchesOf(step))
          drawList(branchSteps(step, branch), branchParentId(step.id, branch), step.id, branch);
        return;
      }
      at = step.id;
      source = step.id;
      sourceHandle = undefined;
    }
    add(plusNodeId(at), "plusNode", at);
    link(source, plusNodeId(at), sourceHandle);
    add(emptyNodeId(at), "emptyNode", at);
    link(plusNodeId(at), emptyNodeId(at));
  };

  add(TRIGGER_ID, "triggerNode", null, { step: 0, trigger: definition.trigger });
  drawList(definition.steps, TRIGGER_ID, TRIGGER_ID);
  return { nodes: layoutFlow(nodes, edges), edges };
}

/**
 * The definition `nodes` draw, read from each step node's parentId and data (edges are not
 * needed). RangeError when there is no trigger or two steps hang at one place.
 *
 * @example
 * graphToDefinition(definitionToGraph(definition).nodes); // equal to definition
 */
export function graphToDefinition(nodes: readonly FlowNode[]): AutomationDefinition {
  const trigger = nodes.find((n) => n.type === "triggerNode")?.data.trigger;
  if (!trigger) throw new RangeError("The flow has no trigger");
  const hanging = new Map<string, FlowNode>();
  for (const node of nodes) {
    if (!isStepNode(node) || node.parentId === null) continue;
    if (hanging.has(node.parentId)) throw new RangeError(`Two steps hang at ${node.parentId}`);
    hanging.set(node.parentId, node);
  }
  const seen = new Set<string>();
  const readList = (parentId: string): Step[] => {
    const steps: Step[] = [];
    let node = hanging.get(parentId);
    while (node && !seen.has(node.id)) {
      seen.add(node.id);
      const config = node.data.config as StepConfig;
      if (config.kind === "condition" || config.kind === "wait") {
        const id = node.id;
        const branches = Object.fromEntries(
          branchesOf(config as BranchingStep).map((b) => [b, readList(branchParentId(id, b))]),
        );
        steps.push({ ...config, branches } as BranchingStep);
        break;
      }
      steps.push({ ...config } as Step);
      node = hanging.get(node.id);
    }
    return steps;
  };
  return { trigger, steps: readList(TRIGGER_ID) };
}
