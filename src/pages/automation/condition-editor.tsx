/**
 * A condition's rules: "All" or "Any" of them, each a field (the trigger's record, the client,
 * an earlier step's output; picked from the list or typed), an operator in words, and a value;
 * a group of its own nests one level down. Used by the condition step and the trigger's filter.
 */
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { AutoComplete, Button, Input, Select, Space, Typography } from "antd";
import type { ConditionalFilter, CrudFilter, LogicalFilter } from "../../../schemas/conditions";
import type { MergeField } from "../../../schemas/merge-fields";
import { CONDITION_OPERATORS, needsNoValue } from "./node-summary";

interface ConditionEditorProps {
  /** Prefix of the inputs' ids. */
  id: string;
  value: ConditionalFilter;
  fields: readonly MergeField[];
  onChange: (value: ConditionalFilter) => void;
  /** 0 at the top; a group inside is 1, and holds no further group. */
  depth?: number;
}

const OPERATOR_OPTIONS = CONDITION_OPERATORS.map(([value, label]) => ({ value, label }));
const newRule = (): LogicalFilter => ({ field: "", operator: "eq", value: "" });

export function ConditionEditor({ id, value, fields, onChange, depth = 0 }: ConditionEditorProps) {
  const rules = value.value;
  const set = (index: number, next: CrudFilter | null) =>
    onChange({
      ...value,
      value:
        next === null ? rules.filter((_, i) => i !== index) : rules.map((r, i) => (i === index ? next : r)),
    });
  const fieldOptions = fields.map((f) => ({ value: f.key.replace(/^trigger\./, ""), label: f.label }));
  return (
    <div className={depth ? "af-rules af-rules--group" : "af-rules"}>
      <Space size={6} align="center" className="af-rules-match">
        <Typography.Text>When</Typography.Text>
        <Select
          id={`${id}-match`}
          aria-label="Match"
          size="small"
          value={value.operator}
          onChange={(operator) => onChange({ ...value, operator })}
          options={[
            { value: "and", label: "all" },
            { value: "or", label: "any" },
          ]}
          style={{ width: 72 }}
        />
        <Typography.Text>of these hold</Typography.Text>
      </Space>
      {rules.map((rule, index) => {
        const key = `${id}-${index}`;
        if (!("field" in rule))
          return (
            <div key={key} className="af-rule-group">
              <ConditionEditor
                id={key}
                value={rule}
                fields={fields}
                depth={depth + 1}
                onChange={(next) => set(index, next)}
              />
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined aria-hidden />}
                onClick={() => set(index, null)}
              >
                Remove group
              </Button>
            </div>
          );
        return (
          <fieldset key={key} className="af-rule" aria-label={`Rule ${index + 1}`}>
            <AutoComplete
              id={`${key}-field`}
              aria-label={`Rule ${index + 1} field`}
              value={rule.field}
              options={fieldOptions}
              filterOption={(input, option) =>
                `${option?.value} ${option?.label}`.toLowerCase().includes(input.toLowerCase())
              }
              onChange={(field: string) => set(index, { ...rule, field })}
              placeholder="Field"
              className="af-rule-field"
            />
            <Select
              id={`${key}-operator`}
              aria-label={`Rule ${index + 1} operator`}
              value={rule.operator}
              options={OPERATOR_OPTIONS}
              onChange={(operator: string) => set(index, { ...rule, operator })}
              className="af-rule-operator"
            />
            {!needsNoValue(rule.operator) && (
              <Input
                id={`${key}-value`}
                aria-label={`Rule ${index + 1} value`}
                value={rule.value === undefined || rule.value === null ? "" : String(rule.value)}
                onChange={(e) => set(index, { ...rule, value: e.target.value })}
                placeholder="Value"
                className="af-rule-value"
              />
            )}
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined aria-hidden />}
              aria-label={`Remove rule ${index + 1}`}
              onClick={() => set(index, null)}
            />
          </fieldset>
        );
      })}
      <Space size={8}>
        <Button
          size="small"
          icon={<PlusOutlined aria-hidden />}
          onClick={() => onChange({ ...value, value: [...rules, newRule()] })}
        >
          Add rule
        </Button>
        {depth === 0 && (
          <Button
            size="small"
            type="dashed"
            onClick={() =>
              onChange({
                ...value,
                value: [...rules, { operator: value.operator === "and" ? "or" : "and", value: [newRule()] }],
              })
            }
          >
            Add group
          </Button>
        )}
      </Space>
    </div>
  );
}
