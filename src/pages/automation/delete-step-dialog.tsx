/**
 * Asks before a step goes (spec §4): a step is removed and the one after it joins the one
 * before it, or the step goes with everything after it; a condition (or a wait) keeps one of
 * its branches in its place, or goes with both.
 */
import { Modal, Radio, Space, Typography } from "antd";
import { useEffect, useState } from "react";
import { BRANCH_LABELS, BRANCHES, type Branch } from "../../../schemas/automation";
import type { FlowNode } from "./flow-graph";
import { nodeSummary } from "./node-summary";

export type DeleteChoice = { kind: "step" } | { kind: "subsequent" } | { kind: "keep"; branch: Branch };

interface DeleteStepDialogProps {
  node: FlowNode | undefined;
  onCancel: () => void;
  onConfirm: (nodeId: string, choice: DeleteChoice) => void;
}

const choiceKey = (c: DeleteChoice) => (c.kind === "keep" ? `keep:${c.branch}` : c.kind);

export function DeleteStepDialog({ node, onCancel, onConfirm }: DeleteStepDialogProps) {
  const config = node?.data.config;
  const branches: readonly Branch[] =
    config?.kind === "condition" ? BRANCHES.condition : config?.kind === "wait" ? BRANCHES.wait : [];
  const choices: DeleteChoice[] = branches.length
    ? [...branches.map((branch): DeleteChoice => ({ kind: "keep", branch })), { kind: "subsequent" }]
    : [{ kind: "step" }, { kind: "subsequent" }];
  const [choice, setChoice] = useState(choiceKey(choices[0]));
  // A new node to delete starts from its first choice.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset per node only.
  useEffect(() => setChoice(choiceKey(choices[0])), [node?.id]);

  if (!node) return null;
  const { title } = nodeSummary(node.type, node.data);
  const words = (c: DeleteChoice) =>
    c.kind === "step"
      ? "Delete this step only: the next step moves up"
      : c.kind === "subsequent"
        ? branches.length
          ? "Delete it and both branches"
          : "Delete this step and every step after it"
        : `Keep the ${BRANCH_LABELS[c.branch]} branch in its place, delete the other`;
  return (
    <Modal
      open
      title={`Delete step ${node.data.step}: ${title}?`}
      okText="Delete"
      okButtonProps={{ danger: true }}
      cancelText="Keep it"
      onCancel={onCancel}
      onOk={() => onConfirm(node.id, choices.find((c) => choiceKey(c) === choice) ?? choices[0])}
    >
      <Radio.Group value={choice} onChange={(e) => setChoice(e.target.value)} aria-label="What to delete">
        <Space direction="vertical">
          {choices.map((c) => (
            <Radio key={choiceKey(c)} value={choiceKey(c)}>
              {words(c)}
            </Radio>
          ))}
        </Space>
      </Radio.Group>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        The draft changes; runs already going on keep the published version.
      </Typography.Paragraph>
    </Modal>
  );
}
