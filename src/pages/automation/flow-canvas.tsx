/**
 * The automation canvas (`@xyflow/react`): the flow laid out top to bottom (the layout is the
 * model's, so nodes are not dragged), pan and zoom, a minimap and zoom controls. A click or
 * Enter on a node selects it (the sidebar shows its form); a click on the background clears
 * the selection; Delete or Backspace on a selected step asks before it removes it.
 */
import {
  Background,
  Controls,
  type Edge,
  MiniMap,
  type Node,
  type NodeChange,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { type KeyboardEvent, useEffect, useMemo } from "react";
import { BRANCH_LABELS, TRIGGER_ID } from "../../../schemas/automation";
import { useReducedMotion } from "../../hooks/use-reduced-motion";
import { type FlowEdge, type FlowNode, parseParentId } from "./flow-graph";
import { NODE_SIZES } from "./flow-layout";
import { type CanvasNodeData, NODE_COMPONENTS } from "./flow-nodes";
import { nodeSummary } from "./node-summary";
import type { TestMark } from "./test-results";

interface FlowCanvasProps {
  nodes: readonly FlowNode[];
  edges: readonly FlowEdge[];
  selected: string | null;
  /** Messages of a refused publish, by node. */
  problems: ReadonlyMap<string, readonly string[]>;
  /** The last test run's marks by node id. */
  tests?: ReadonlyMap<string, TestMark>;
  onSelect: (nodeId: string | null) => void;
  /** Delete or Backspace on the selected step. */
  onDeleteRequest: (nodeId: string) => void;
}

const NO_PROBLEMS: readonly string[] = [];
const NO_TESTS: ReadonlyMap<string, TestMark> = new Map();
const FIT = { maxZoom: 1, minZoom: 0.5, padding: 0.1 };

/**
 * Fits the flow in view again when a step comes or goes (not on every change of a form): a
 * short glide, or at once for a person who asked their system for less motion (and the steps
 * then never move under a click).
 */
function FitOnGrowth({ count, marked }: { count: number; marked: boolean }) {
  const { fitView } = useReactFlow();
  const reduced = useReducedMotion();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `marked` — a test's summary came or went above the canvas, which changed its height: fit again.
  useEffect(() => {
    if (!count) return;
    const frame = requestAnimationFrame(() => void fitView({ ...FIT, duration: reduced ? 0 : 200 }));
    return () => cancelAnimationFrame(frame);
  }, [count, marked, fitView, reduced]);
  return null;
}

const isTyping = (target: EventTarget) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

export function FlowCanvas({
  nodes,
  edges,
  selected,
  problems,
  tests = NO_TESTS,
  onSelect,
  onDeleteRequest,
}: FlowCanvasProps) {
  const canvasNodes = useMemo<Node<CanvasNodeData>[]>(() => {
    const numbers = new Map(
      nodes.flatMap((n) => (n.data.step === undefined ? [] : [[n.id, n.data.step] as const])),
    );
    return nodes.map((n) => ({
      id: n.id,
      type: n.type,
      position: n.position,
      // Fixed sizes (the layout's): the minimap and fitting need them before any measure.
      width: NODE_SIZES[n.type].width,
      height: NODE_SIZES[n.type].height,
      selected: n.id === selected,
      draggable: false,
      connectable: false,
      deletable: false,
      ariaLabel: tests.get(n.id)
        ? `${ariaLabelOf(n, numbers)}. Test: ${tests.get(n.id)?.text}`
        : ariaLabelOf(n, numbers),
      ariaRole: n.type === "emptyNode" ? undefined : "button",
      selectable: n.type !== "emptyNode",
      focusable: n.type !== "emptyNode",
      data: {
        ...n.data,
        hangsAt: n.parentId,
        problems: problems.get(n.id) ?? NO_PROBLEMS,
        test: tests.get(n.id),
      },
    }));
  }, [nodes, selected, problems, tests]);
  const canvasEdges = useMemo<Edge[]>(
    () =>
      edges.map((e) => ({
        id: e.id,
        source: e.source,
        target: e.target,
        sourceHandle: e.sourceHandle ?? null,
        type: "smoothstep",
        ...(e.sourceHandle
          ? {
              label: BRANCH_LABELS[e.sourceHandle],
              className: `af-edge af-edge--${e.sourceHandle}`,
              labelBgPadding: [6, 2] as [number, number],
              labelBgBorderRadius: 8,
            }
          : {}),
        selectable: false,
        deletable: false,
      })),
    [edges],
  );

  // Selection goes through the page's state: a node picked by click or keyboard, or none.
  const onNodesChange = (changes: NodeChange[]) => {
    const picked = changes.find((c) => c.type === "select" && c.selected);
    if (picked && "id" in picked) onSelect(picked.id);
    else if (changes.some((c) => c.type === "select")) onSelect(null);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.key !== "Delete" && event.key !== "Backspace") || isTyping(event.target)) return;
    // The focused step (where focus lands after a delete), else the selected one.
    const focused =
      event.target instanceof HTMLElement
        ? event.target.closest<HTMLElement>(".react-flow__node")?.dataset.id
        : undefined;
    const node = nodes.find((n) => n.id === (focused ?? selected));
    if (!node?.data.config) return;
    event.preventDefault();
    onDeleteRequest(node.id);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys reach the canvas from its focused node.
    <div className="af-canvas" onKeyDown={onKeyDown} data-testid="automation-canvas" tabIndex={-1}>
      <ReactFlowProvider>
        <ReactFlow
          nodes={canvasNodes}
          edges={canvasEdges}
          nodeTypes={NODE_COMPONENTS}
          onNodesChange={onNodesChange}
          nodesDraggable={false}
          nodesConnectable={false}
          deleteKeyCode={null}
          fitView
          fitViewOptions={FIT}
          minZoom={0.25}
          maxZoom={1.5}
          proOptions={{ hideAttribution: true }}
        >
          <FitOnGrowth count={nodes.length} marked={tests.size > 0} />
          <Background gap={20} />
          <Controls showInteractive={false} position="bottom-left" />
          <MiniMap
            pannable
            zoomable
            position="bottom-right"
            ariaLabel="Overview of the flow"
            nodeColor={(n) => (n.type === "plusNode" || n.type === "emptyNode" ? "#d0d5dd" : "#a5b4fc")}
            nodeBorderRadius={4}
          />
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  );
}

/**
 * Focuses the canvas node `nodeId` (a step, the trigger), or the canvas itself when it is not
 * drawn: where focus goes after the node it was on is deleted or its dialog closes.
 */
export function focusCanvasNode(nodeId: string): void {
  const canvas = document.querySelector<HTMLElement>('[data-testid="automation-canvas"]');
  const node = canvas?.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(nodeId)}"]`);
  (node ?? canvas)?.focus();
}

/** A node's name for assistive technology and tests: a plus says where it inserts. */
function ariaLabelOf(node: FlowNode, numbers: ReadonlyMap<string, number>): string {
  switch (node.type) {
    case "plusNode": {
      const { id, branch } = parseParentId(node.parentId ?? TRIGGER_ID);
      const after = id === TRIGGER_ID ? "the trigger" : `step ${numbers.get(id) ?? "?"}`;
      return branch
        ? `Add a step to the ${BRANCH_LABELS[branch]} branch of ${after}`
        : `Add a step after ${after}`;
    }
    case "emptyNode":
      return "End of the flow";
    case "triggerNode":
      return `Trigger: ${nodeSummary(node.type, node.data).title}`;
    default:
      return `Step ${node.data.step ?? ""}: ${nodeSummary(node.type, node.data).title}`;
  }
}
