/**
 * The builder's sidebar (spec §3 `sidebarType`): nothing selected ('empty') says how to start;
 * a plus offers the kinds of step to insert there; the trigger and each step show their form,
 * the problems a refused publish found on them, and (steps) how to delete them.
 */
import {
  ApiOutlined,
  BranchesOutlined,
  ClockCircleOutlined,
  DeleteOutlined,
  FieldTimeOutlined,
} from "@ant-design/icons";
import { Alert, Button, Form, Input, Typography } from "antd";
import type { ReactNode } from "react";
import { type ActionInputs, STEP_KIND_LABELS, type StepKind } from "../../../schemas/automation";
import type { MergeField } from "../../../schemas/merge-fields";
import { ActionForm } from "./action-form";
import type { AutomationAction, AutomationState } from "./automation-state";
import type { StepConfig } from "./flow-graph";
import { ConditionForm, DelayForm, TriggerForm, WaitForm } from "./step-forms";
import type { VariableGroup } from "./variables";

const KIND_HINTS: ReadonlyArray<{ kind: StepKind; icon: ReactNode; hint: string }> = [
  {
    kind: "action",
    icon: <ApiOutlined aria-hidden />,
    hint: "Send an email or SMS, change a record, call a URL",
  },
  {
    kind: "condition",
    icon: <BranchesOutlined aria-hidden />,
    hint: "Go one way or another: Yes and No branches",
  },
  { kind: "delay", icon: <ClockCircleOutlined aria-hidden />, hint: "Wait a while, or until a date" },
  {
    kind: "wait",
    icon: <FieldTimeOutlined aria-hidden />,
    hint: "Wait for a reply or a change, with a timeout",
  },
];

const DEFAULT_TO: Readonly<Record<string, string>> = {
  "send email": "{{client.email}}",
  "send sms": "{{client.phone}}",
};

interface NodeSidebarProps {
  state: AutomationState;
  dispatch: (action: AutomationAction) => void;
  problems: readonly string[];
  /** The trigger record's fields (formFields), for conditions. */
  triggerFields: readonly MergeField[];
  /** Everything the selected step may insert (trigger, client, earlier steps). */
  groups: readonly VariableGroup[];
  webhookPath: string | undefined;
  onDelete: (nodeId: string) => void;
}

export function NodeSidebar({
  state,
  dispatch,
  problems,
  triggerFields,
  groups,
  webhookPath,
  onDelete,
}: NodeSidebarProps) {
  const node = state.nodes.find((n) => n.id === state.selectedNode);
  if (!node || state.sidebarType === "empty")
    return (
      <div className="af-sidebar-empty">
        <Typography.Title level={5}>Build the flow</Typography.Title>
        <Typography.Paragraph type="secondary">
          Select the trigger to say when the automation starts, a <strong>+</strong> to add a step there, or a
          step to change it. Steps run from the top; a condition splits the flow into Yes and No.
        </Typography.Paragraph>
        <Typography.Paragraph type="secondary">
          Keyboard: Tab to a node, Enter to select it, Delete to remove a selected step.
        </Typography.Paragraph>
      </div>
    );

  if (state.sidebarType === "insert")
    return (
      <div className="af-sidebar-body">
        <Typography.Title level={5}>Add a step here</Typography.Title>
        <div className="af-kinds">
          {KIND_HINTS.map(({ kind, icon, hint }) => (
            <button
              key={kind}
              type="button"
              className="af-kind"
              onClick={() => {
                dispatch({ type: "insert", plusId: node.id, kind });
                // The menu goes with the click: focus moves on to the new step's first field.
                requestAnimationFrame(() => document.getElementById("af-step-name")?.focus());
              }}
            >
              <span className="af-kind-icon">{icon}</span>
              <span>
                <strong>{STEP_KIND_LABELS[kind]}</strong>
                <span className="af-kind-hint">{hint}</span>
              </span>
            </button>
          ))}
        </div>
      </div>
    );

  const config = node.data.config;
  const update = (changes: Partial<StepConfig>) => dispatch({ type: "updateStep", nodeId: node.id, changes });
  let form: ReactNode = null;
  if (node.data.trigger)
    form = (
      <TriggerForm
        trigger={node.data.trigger}
        fields={triggerFields}
        webhookPath={webhookPath}
        onChange={(changes) => dispatch({ type: "updateTrigger", changes })}
      />
    );
  else if (config?.kind === "condition")
    form = <ConditionForm step={config} fields={conditionFields(groups)} onChange={update} />;
  else if (config?.kind === "delay") form = <DelayForm step={config} onChange={update} />;
  else if (config?.kind === "wait") form = <WaitForm step={config} onChange={update} />;
  else if (config?.kind === "action")
    form = (
      <ActionForm
        step={config}
        option={state.actionType?.value}
        groups={groups}
        onChooseType={(option) => {
          dispatch({ type: "chooseActionType", option });
          // A message goes to the run's client unless told otherwise.
          const to = DEFAULT_TO[option];
          if (to && !config.inputs.to) update({ inputs: { ...config.inputs, to } });
        }}
        onInputs={(inputs: ActionInputs) => update({ inputs })}
      />
    );

  return (
    <div className="af-sidebar-body">
      <Typography.Title level={5}>
        {node.data.trigger
          ? "Trigger"
          : `Step ${node.data.step}: ${config ? STEP_KIND_LABELS[config.kind] : ""}`}
      </Typography.Title>
      {problems.length > 0 && (
        <Alert
          type="error"
          showIcon
          className="af-sidebar-problems"
          message={problems.length === 1 ? problems[0] : "Fix these before publishing"}
          description={
            problems.length > 1 ? (
              <ul>
                {problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            ) : undefined
          }
        />
      )}
      <Form layout="vertical" component="div">
        {config && (
          <Form.Item label="Name (optional)" htmlFor="af-step-name">
            <Input
              id="af-step-name"
              value={config.name ?? ""}
              maxLength={80}
              placeholder="Shown on the step"
              onChange={(e) => update({ name: e.target.value || undefined })}
            />
          </Form.Item>
        )}
        {form}
      </Form>
      {config && (
        <Button
          danger
          icon={<DeleteOutlined aria-hidden />}
          onClick={() => onDelete(node.id)}
          className="af-sidebar-delete"
        >
          Delete step…
        </Button>
      )}
    </div>
  );
}

/** A condition's fields: the variables, the trigger's record without its `trigger.` prefix. */
const conditionFields = (groups: readonly VariableGroup[]): MergeField[] => groups.flatMap((g) => g.fields);
