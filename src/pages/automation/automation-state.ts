/**
 * The automation canvas's state (spec §3 "automation: nodes, edges, flowVisibility, sidebarType
 * (default 'empty'), selectedNode, actionType (with actionName), formFields, actionFormFields")
 * as a reducer, so the page is a `useReducer` over pure functions. The graph edits are
 * flow-edits.ts; this adds what is selected and what the sidebar shows.
 */
import {
  ACTION_OPTIONS,
  ACTION_TYPES,
  type ActionType,
  type AutomationDefinition,
  type Branch,
  type StepKind,
  type Trigger,
} from "../../../schemas/automation";
import {
  deleteConditionKeeping,
  deleteNodeAndReconnect,
  deleteSubsequentNodes,
  insertNewStep,
  updateStep,
  updateTrigger,
} from "./flow-edits";
import {
  actionTypeName,
  definitionToGraph,
  type FlowEdge,
  type FlowGraph,
  type FlowNode,
  type FlowNodeType,
  type StepConfig,
} from "./flow-graph";

/** What the sidebar shows: nothing ('empty'), the step menu of a plus node ('insert'), or a node's form. */
export type SidebarType = "empty" | "insert" | "trigger" | "condition" | "delay" | "wait" | "action";

export const SIDEBAR_OF: Readonly<Record<FlowNodeType, SidebarType>> = {
  triggerNode: "trigger",
  plusNode: "insert",
  conditionNode: "condition",
  delayNode: "delay",
  waitNode: "wait",
  actionNode: "action",
  emptyNode: "empty",
};

/** A value a text may insert as a variable: `{{client.email}}`, `{{steps.call.status}}`. */
export interface VariableField {
  key: string;
  label: string;
}

export interface AutomationState {
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** The canvas is shown once a flow is loaded (before, the page shows its loading or error state). */
  flowVisibility: boolean;
  sidebarType: SidebarType;
  /** The id of the selected node. */
  selectedNode: string | null;
  /** The selected action's chosen option and its type name (spec §4: spaces → underscores). */
  actionType: { value: string; actionName: string } | null;
  /** Fields of the trigger's record, insertable as variables. */
  formFields: VariableField[];
  /** Outputs of the steps before the selected one, insertable as variables. */
  actionFormFields: VariableField[];
}

export const initialAutomationState: AutomationState = {
  nodes: [],
  edges: [],
  flowVisibility: false,
  sidebarType: "empty",
  selectedNode: null,
  actionType: null,
  formFields: [],
  actionFormFields: [],
};

export type AutomationAction =
  | { type: "load"; definition: AutomationDefinition }
  | { type: "select"; nodeId: string | null }
  | { type: "insert"; plusId: string; kind: StepKind }
  | { type: "delete"; nodeId: string }
  | { type: "deleteSubsequent"; nodeId: string }
  | { type: "deleteKeeping"; nodeId: string; keep: Branch }
  | { type: "chooseActionType"; option: string }
  | { type: "updateStep"; nodeId: string; changes: Partial<StepConfig> }
  | { type: "updateTrigger"; changes: Partial<Trigger> }
  | { type: "setFormFields"; fields: VariableField[] }
  | { type: "setActionFormFields"; fields: VariableField[] }
  | { type: "reset" };

/** The chosen option of a stored action type ("send_email" → "send email"). */
const optionOf = (actionName: string | null | undefined) =>
  ACTION_OPTIONS.find((o) => actionTypeName(o.value) === actionName)?.value;

/** `state` with `nodeId` selected: the sidebar of its type, the action type of an action. */
function select(state: AutomationState, nodeId: string | null): AutomationState {
  const node = nodeId ? state.nodes.find((n) => n.id === nodeId) : undefined;
  if (!node)
    return { ...state, selectedNode: null, sidebarType: "empty", actionType: null, actionFormFields: [] };
  const config = node.data.config;
  const value = config?.kind === "action" ? optionOf(config.type) : undefined;
  return {
    ...state,
    selectedNode: node.id,
    sidebarType: SIDEBAR_OF[node.type],
    actionType: value ? { value, actionName: actionTypeName(value) } : null,
    actionFormFields: node.id === state.selectedNode ? state.actionFormFields : [],
  };
}

/** `state` with a new graph; the selection stays when its node is still there. */
const withGraph = (state: AutomationState, graph: FlowGraph): AutomationState =>
  select({ ...state, nodes: graph.nodes, edges: graph.edges }, state.selectedNode);

/**
 * The canvas's reducer.
 *
 * @example
 * const [state, dispatch] = useReducer(automationReducer, initialAutomationState);
 * dispatch({ type: "load", definition });
 * dispatch({ type: "insert", plusId: "plus:trigger", kind: "action" }); // selects the new action
 */
export function automationReducer(state: AutomationState, action: AutomationAction): AutomationState {
  const graph = { nodes: state.nodes, edges: state.edges };
  switch (action.type) {
    case "load":
      return { ...initialAutomationState, ...definitionToGraph(action.definition), flowVisibility: true };
    case "select":
      return select(state, action.nodeId);
    case "insert": {
      const inserted = insertNewStep(graph, action.plusId, action.kind);
      return select(withGraph(state, inserted.graph), inserted.id);
    }
    case "delete":
      return withGraph(state, deleteNodeAndReconnect(graph, action.nodeId));
    case "deleteSubsequent":
      return withGraph(state, deleteSubsequentNodes(graph, action.nodeId));
    case "deleteKeeping":
      return withGraph(state, deleteConditionKeeping(graph, action.nodeId, action.keep));
    case "chooseActionType": {
      const actionName = actionTypeName(action.option);
      const node = state.nodes.find((n) => n.id === state.selectedNode);
      const next = { ...state, actionType: { value: action.option, actionName } };
      // The stored type is the name; an option the engine does not know is not stored.
      if (node?.type !== "actionNode" || !ACTION_TYPES.includes(actionName as ActionType)) return next;
      return withGraph(next, updateStep(graph, node.id, { type: actionName as ActionType }));
    }
    case "updateStep":
      return withGraph(state, updateStep(graph, action.nodeId, action.changes));
    case "updateTrigger":
      return withGraph(state, updateTrigger(graph, action.changes));
    case "setFormFields":
      return { ...state, formFields: action.fields };
    case "setActionFormFields":
      return { ...state, actionFormFields: action.fields };
    case "reset":
      return initialAutomationState;
  }
}
