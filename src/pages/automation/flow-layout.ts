/**
 * Automatic layout of the automation canvas (issue 17): a vertical flow from the trigger down,
 * each node centred over what hangs below it, a branching node's branches side by side in
 * their order (yes left of no). Pure: positions from the node and edge lists alone, so the
 * same flow always looks the same and an edit never leaves a node where a person dragged it.
 */
import type { FlowEdge, FlowNode, FlowNodeType } from "./flow-types";

/** Each node type's box on the canvas (the node components draw to these sizes). */
export const NODE_SIZES: Readonly<Record<FlowNodeType, { width: number; height: number }>> = {
  triggerNode: { width: 280, height: 72 },
  conditionNode: { width: 280, height: 72 },
  delayNode: { width: 280, height: 72 },
  waitNode: { width: 280, height: 72 },
  actionNode: { width: 280, height: 72 },
  plusNode: { width: 28, height: 28 },
  emptyNode: { width: 120, height: 32 },
};
/** Space between a node and the next one below it. */
export const ROW_GAP = 28;
/** Space between two branches side by side. */
export const BRANCH_GAP = 48;

/**
 * The nodes with their positions (top-left corners): the first node without an incoming edge
 * (the trigger) at x = 0 (its centre), y = 0; nodes no edge reaches keep their position.
 *
 * @example
 * layoutFlow(nodes, edges).find((n) => n.id === "trigger")?.position; // { x: -140, y: 0 }
 */
export function layoutFlow(nodes: readonly FlowNode[], edges: readonly FlowEdge[]): FlowNode[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const below = new Map<string, string[]>();
  const reached = new Set<string>();
  for (const edge of edges) {
    if (!byId.has(edge.source) || !byId.has(edge.target) || reached.has(edge.target)) continue;
    reached.add(edge.target);
    below.set(edge.source, [...(below.get(edge.source) ?? []), edge.target]);
  }
  const sizeOf = (id: string) => NODE_SIZES[byId.get(id)?.type ?? "actionNode"];
  const widths = new Map<string, number>();
  const widthOf = (id: string, path = new Set<string>()): number => {
    const known = widths.get(id);
    if (known !== undefined) return known;
    if (path.has(id)) return 0; // a loop: edges of a tree never make one
    path.add(id);
    const children = below.get(id) ?? [];
    const spread =
      children.reduce((sum, c) => sum + widthOf(c, path), 0) + BRANCH_GAP * (children.length - 1);
    const width = Math.max(sizeOf(id).width, children.length ? spread : 0);
    widths.set(id, width);
    return width;
  };
  const positions = new Map<string, { x: number; y: number }>();
  const place = (id: string, centre: number, top: number) => {
    if (positions.has(id)) return;
    const size = sizeOf(id);
    positions.set(id, { x: centre - size.width / 2, y: top });
    const children = below.get(id) ?? [];
    const next = top + size.height + ROW_GAP;
    if (children.length === 1) return place(children[0], centre, next);
    const spread = children.reduce((sum, c) => sum + widthOf(c), 0) + BRANCH_GAP * (children.length - 1);
    let left = centre - spread / 2;
    for (const child of children) {
      const width = widthOf(child);
      place(child, left + width / 2, next);
      left += width + BRANCH_GAP;
    }
  };
  const root = nodes.find((n) => !reached.has(n.id));
  if (root) place(root.id, 0, 0);
  return nodes.map((n) => ({ ...n, position: positions.get(n.id) ?? n.position }));
}
