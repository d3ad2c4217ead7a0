/**
 * The automation canvas's node and edge types (flow-graph.ts draws a definition as these,
 * flow-layout.ts places them). Apart from both so the layout does not import the graph back.
 */
import type { Branch, Step, StepKind, Trigger } from "../../../schemas/automation";

export const NODE_TYPES = [
  "triggerNode",
  "plusNode",
  "conditionNode",
  "emptyNode",
  "delayNode",
  "waitNode",
  "actionNode",
] as const;
export type FlowNodeType = (typeof NODE_TYPES)[number];

/** The node type of each step kind. */
export const STEP_NODE_TYPES: Readonly<Record<StepKind, FlowNodeType>> = {
  condition: "conditionNode",
  delay: "delayNode",
  wait: "waitNode",
  action: "actionNode",
};

type WithoutBranches<S> = S extends unknown ? Omit<S, "branches"> : never;
/** A step's own fields (its branches are the nodes below it). */
export type StepConfig = WithoutBranches<Step>;

export interface FlowNodeData {
  /** The step's number (trigger 0, steps from 1, depth-first, yes before no); absent on plus and empty nodes. */
  step?: number;
  /** triggerNode: the trigger. */
  trigger?: Trigger;
  /** Step nodes: the step without its branches. */
  config?: StepConfig;
}

export interface FlowNode {
  id: string;
  type: FlowNodeType;
  parentId: string | null;
  data: FlowNodeData;
  /** Top-left corner, from `layoutFlow`. */
  position: { x: number; y: number };
}

export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  /** From a branching node: the branch the edge starts (the node's handle of that name). */
  sourceHandle?: Branch;
}

export interface FlowGraph {
  nodes: FlowNode[];
  edges: FlowEdge[];
}
