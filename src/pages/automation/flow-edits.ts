/**
 * The canvas's edits, spec §4 "Automation" as named pure functions over the node/edge lists:
 * - deleting a node reconnects its following node to its preceding one (`deleteNodeAndReconnect`);
 * - deleting subsequent nodes removes the node and everything downstream (`deleteSubsequentNodes`);
 * - inserting or removing a step renumbers the later steps by one (every edit redraws the
 *   graph, and numbers are counted depth-first: `stepNumbers`);
 * - the action type name is the option value with spaces replaced by underscores (`actionTypeName`).
 * And issue 17's branches: deleting a condition keeps one branch, reconnected to the preceding
 * node, and removes the other (`deleteConditionKeeping`).
 *
 * Each edit reads the definition from the nodes, changes it and draws it again, so the graph
 * is always one a definition can make (and step ids never change).
 */
import {
  type AutomationDefinition,
  type Branch,
  type BranchingStep,
  branchesOf,
  branchSteps,
  isBranching,
  newStep,
  newStepId,
  type Step,
  type StepKind,
  TRIGGER_ID,
  type Trigger,
  walkSteps,
} from "../../../schemas/automation";
import {
  definitionToGraph,
  type FlowGraph,
  graphToDefinition,
  parseParentId,
  type StepConfig,
} from "./flow-graph";

/** Where a step is: the list holding it (in a copy of the definition) and its index there. */
interface Place {
  list: Step[];
  index: number;
  step: Step;
}

function find(steps: Step[], id: string): Place | null {
  for (const [index, step] of steps.entries()) {
    if (step.id === id) return { list: steps, index, step };
    for (const branch of branchesOf(step)) {
      const found = find(branchSteps(step as BranchingStep, branch), id);
      if (found) return found;
    }
  }
  return null;
}

/** The list and index a step inserted at `parentId` takes (the trigger, a step, or `<id>:<branch>`). */
function slotAt(steps: Step[], parentId: string): { list: Step[]; index: number } {
  if (parentId === TRIGGER_ID) return { list: steps, index: 0 };
  const { id, branch } = parseParentId(parentId);
  const place = find(steps, id);
  if (!place) throw new RangeError(`No step ${id} in the flow`);
  if (!branch) return { list: place.list, index: place.index + 1 };
  const step = place.step as BranchingStep;
  if (!branchesOf(step).includes(branch)) throw new RangeError(`Step ${id} has no ${branch} branch`);
  return { list: (step.branches as Record<string, Step[]>)[branch], index: 0 };
}

const edited = (graph: FlowGraph, change: (definition: AutomationDefinition) => void): FlowGraph => {
  const definition = structuredClone(graphToDefinition(graph.nodes));
  change(definition);
  return definitionToGraph(definition);
};

/** The place of the step of node `nodeId`, or null for the trigger, plus and empty nodes. */
const stepPlace = (definition: AutomationDefinition, nodeId: string) => find(definition.steps, nodeId);

/**
 * `step` inserted where the plus node `plusId` is: the steps that came after it follow it (a
 * condition takes them into its yes branch, a wait for an event into its event branch).
 *
 * @example
 * insertStep(graph, "plus:trigger", newStep("delay", "delay-1")); // the new step 1; the others 2, 3, …
 */
export function insertStep(graph: FlowGraph, plusId: string, step: Step): FlowGraph {
  const plus = graph.nodes.find((n) => n.id === plusId);
  if (plus?.type !== "plusNode" || plus.parentId === null)
    throw new RangeError(`${plusId} is not a plus node`);
  const parentId = plus.parentId;
  return edited(graph, (definition) => {
    const taken = new Set(walkSteps(definition.steps).map((s) => s.id));
    if (taken.has(step.id) || step.id === TRIGGER_ID)
      throw new RangeError(`A step ${step.id} is there already`);
    const { list, index } = slotAt(definition.steps, parentId);
    const after = list.splice(index);
    if (isBranching(step)) {
      const first = branchesOf(step)[0];
      const branches = step.branches as Record<string, Step[]>;
      branches[first] = [...after, ...branchSteps(step, first)];
      list.push(step);
    } else list.push(step, ...after);
  });
}

/** A new empty step of `kind` inserted at the plus node `plusId`, with an id not yet taken. */
export function insertNewStep(
  graph: FlowGraph,
  plusId: string,
  kind: StepKind,
): { graph: FlowGraph; id: string } {
  const id = newStepId(
    kind,
    graph.nodes.map((n) => n.id),
  );
  return { graph: insertStep(graph, plusId, newStep(kind, id)), id };
}

/**
 * The node removed, its following node reconnected to its preceding one, later steps
 * renumbered. A branching node must say which branch stays: RangeError (use
 * `deleteConditionKeeping`). The trigger, plus and empty nodes are not steps: the graph comes
 * back unchanged.
 *
 * @example
 * deleteNodeAndReconnect(graph, "step-b"); // step-a → plus → step-c
 */
export function deleteNodeAndReconnect(graph: FlowGraph, nodeId: string): FlowGraph {
  const definition = graphToDefinition(graph.nodes);
  const place = stepPlace(definition, nodeId);
  if (!place) return graph;
  if (isBranching(place.step)) throw new RangeError("Choose which branch to keep");
  return edited(graph, (copy) => {
    const own = stepPlace(copy, nodeId) as Place;
    own.list.splice(own.index, 1);
  });
}

/**
 * The node removed with everything downstream of it: the steps after it and, for a branching
 * node, both branches. Its preceding node then ends its list. The trigger, plus and empty
 * nodes are not steps: the graph comes back unchanged.
 */
export function deleteSubsequentNodes(graph: FlowGraph, nodeId: string): FlowGraph {
  if (!stepPlace(graphToDefinition(graph.nodes), nodeId)) return graph;
  return edited(graph, (copy) => {
    const own = stepPlace(copy, nodeId) as Place;
    own.list.splice(own.index);
  });
}

/**
 * A branching node removed keeping its branch `keep`: that branch's steps take the node's place
 * (reconnected to the preceding node), the other branch is removed. RangeError when the node
 * does not branch or has no such branch.
 *
 * @example
 * deleteConditionKeeping(graph, "check", "no"); // … → plus → (the no branch's first step)
 */
export function deleteConditionKeeping(graph: FlowGraph, nodeId: string, keep: Branch): FlowGraph {
  return edited(graph, (copy) => {
    const own = stepPlace(copy, nodeId);
    if (!own || !isBranching(own.step)) throw new RangeError(`${nodeId} does not branch`);
    if (!branchesOf(own.step).includes(keep)) throw new RangeError(`${nodeId} has no ${keep} branch`);
    own.list.splice(own.index, 1, ...branchSteps(own.step, keep));
  });
}

/** The step of node `nodeId` with `changes` (never its id, kind or branches), as the sidebar saves it. */
export function updateStep(graph: FlowGraph, nodeId: string, changes: Partial<StepConfig>): FlowGraph {
  return edited(graph, (copy) => {
    const own = stepPlace(copy, nodeId);
    if (!own) throw new RangeError(`No step ${nodeId} in the flow`);
    const {
      id: _id,
      kind: _kind,
      branches: _branches,
      ...rest
    } = changes as Partial<Step> & { branches?: unknown };
    own.list[own.index] = { ...own.step, ...rest } as Step;
  });
}

/** The trigger with `changes`, as the sidebar saves it. */
export function updateTrigger(graph: FlowGraph, changes: Partial<Trigger>): FlowGraph {
  return edited(graph, (copy) => {
    copy.trigger = { ...copy.trigger, ...changes };
  });
}

/**
 * The steps a run passes before reaching `stepId`, in order: their outputs are the variables
 * that step may use (the sidebar's actionFormFields). Empty for the first step or an unknown id.
 */
export function stepsBefore(definition: AutomationDefinition, stepId: string): Step[] {
  const walk = (steps: readonly Step[], before: Step[]): Step[] | null => {
    for (const [i, step] of steps.entries()) {
      const path = [...before, ...steps.slice(0, i)];
      if (step.id === stepId) return path;
      for (const branch of branchesOf(step)) {
        const found = walk(branchSteps(step as BranchingStep, branch), [...path, step]);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(definition.steps, []) ?? [];
}
