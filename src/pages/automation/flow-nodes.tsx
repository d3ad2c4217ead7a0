/**
 * The canvas's node components (`@xyflow/react` node types), drawn to the sizes the layout
 * reserves (flow-layout.ts NODE_SIZES): the trigger, a step of each kind with its number and
 * what it does, a condition or a wait with a handle per branch, the plus that inserts a step,
 * and the empty end of a branch. A node with problems from a refused publish is marked.
 */
import {
  ApiOutlined,
  BranchesOutlined,
  ClockCircleOutlined,
  ExclamationCircleFilled,
  FieldTimeOutlined,
  PlusOutlined,
  ThunderboltOutlined,
} from "@ant-design/icons";
import { Handle, type NodeProps, Position } from "@xyflow/react";
import type { ReactNode } from "react";
import { BRANCHES } from "../../../schemas/automation";
import { plural } from "../../lib/text";
import type { FlowNodeData, FlowNodeType } from "./flow-graph";
import { NODE_SIZES } from "./flow-layout";
import { nodeSummary } from "./node-summary";
import { type TestMark, testIcon } from "./test-results";

/** What the canvas hands each node: its model data, and the page's marks. */
export interface CanvasNodeData extends FlowNodeData, Record<string, unknown> {
  /** The model's parentId (xyflow keeps `parentId` for sub-flows). */
  hangsAt: string | null;
  problems: readonly string[];
  /** The last test run's result on this node, if it ran. */
  test?: TestMark;
}

type CanvasNodeProps = NodeProps & { data: CanvasNodeData };

const ICONS: Readonly<Record<string, ReactNode>> = {
  triggerNode: <ThunderboltOutlined aria-hidden />,
  conditionNode: <BranchesOutlined aria-hidden />,
  delayNode: <ClockCircleOutlined aria-hidden />,
  waitNode: <FieldTimeOutlined aria-hidden />,
  actionNode: <ApiOutlined aria-hidden />,
};

const sized = (type: FlowNodeType) => ({ width: NODE_SIZES[type].width, height: NODE_SIZES[type].height });

function Card({
  type,
  data,
  selected,
  children,
}: CanvasNodeProps & { type: FlowNodeType; children?: ReactNode }) {
  const { title, detail } = nodeSummary(type, data);
  const classes = ["af-node", `af-node--${type}`];
  if (selected) classes.push("af-node--selected");
  if (data.problems.length) classes.push("af-node--problem");
  if (data.test) classes.push(`af-node--test-${data.test.status}`);
  return (
    <div className={classes.join(" ")} style={sized(type)} title={data.problems.join("\n") || undefined}>
      {type !== "triggerNode" && <Handle type="target" position={Position.Top} isConnectable={false} />}
      <span className="af-node-icon">{ICONS[type]}</span>
      <span className="af-node-text">
        <span className="af-node-kicker">
          {type === "triggerNode" ? "Trigger" : `Step ${data.step ?? "?"}`}
          {data.problems.length > 0 && (
            <span className="af-node-problems">
              <ExclamationCircleFilled aria-hidden /> {plural(data.problems.length, "problem")}
            </span>
          )}
          {data.test && (
            <span className={`af-node-test af-node-test--${data.test.status}`} data-testid="test-mark">
              {testIcon(data.test.status)} {data.test.text}
            </span>
          )}
        </span>
        <strong className="af-node-title">{title}</strong>
        {detail && <span className="af-node-detail">{detail}</span>}
      </span>

      {children ?? <Handle type="source" position={Position.Bottom} isConnectable={false} />}
    </div>
  );
}

/** A condition's or a wait's node: a handle per branch (the edges below are named by branch). */
function BranchingCard(props: CanvasNodeProps & { type: "conditionNode" | "waitNode" }) {
  const branches = BRANCHES[props.type === "conditionNode" ? "condition" : "wait"];
  return (
    <Card {...props}>
      {branches.map((branch, i) => (
        <Handle
          key={branch}
          id={branch}
          type="source"
          position={Position.Bottom}
          isConnectable={false}
          style={{ left: `${((i + 1) * 100) / (branches.length + 1)}%` }}
        />
      ))}
    </Card>
  );
}

function PlusNode({ selected }: CanvasNodeProps) {
  return (
    <div
      className={selected ? "af-plus af-plus--selected" : "af-plus"}
      style={sized("plusNode")}
      title="Add a step here"
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <PlusOutlined aria-hidden />
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

function EmptyNode() {
  return (
    <div className="af-end" style={sized("emptyNode")}>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      End
    </div>
  );
}

export const NODE_COMPONENTS = {
  triggerNode: (p: CanvasNodeProps) => <Card {...p} type="triggerNode" />,
  conditionNode: (p: CanvasNodeProps) => <BranchingCard {...p} type="conditionNode" />,
  waitNode: (p: CanvasNodeProps) => <BranchingCard {...p} type="waitNode" />,
  delayNode: (p: CanvasNodeProps) => <Card {...p} type="delayNode" />,
  actionNode: (p: CanvasNodeProps) => <Card {...p} type="actionNode" />,
  plusNode: PlusNode,
  emptyNode: EmptyNode,
};
