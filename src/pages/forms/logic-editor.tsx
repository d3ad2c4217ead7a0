/**
 * A field's conditional logic: rules that show, hide or require it when all (or any) of their
 * conditions on other fields' answers hold. A condition names another answerable field, an
 * operator of the one condition language fit for that field's kind (field-rules.ts), and a
 * value typed, counted or picked among the field's options.
 */
import { CloseOutlined, DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Empty, Flex, Input, InputNumber, Select, Typography } from "antd";
import {
  answers,
  type FieldLogic,
  type FormFieldDef,
  hasOptions,
  LOGIC_ACTIONS,
  type LogicAction,
} from "../../../schemas/form-definition";
import { needsValue, operatorsFor } from "./field-rules";

const MAX_RULES = 10;
const MAX_CONDITIONS = 20;
const ACTION_LABELS = { show: "Show", hide: "Hide", require: "Require" } as const;
/** A page break's rules show or skip its page; "require" means nothing for a page. */
const PAGE_ACTION_LABELS = { show: "Show page", hide: "Skip page" } as const;

type Condition = FieldLogic["conditions"][number];

interface LogicEditorProps {
  field: FormFieldDef;
  /** Every field of the form. */
  fields: readonly FormFieldDef[];
  problems: Readonly<Record<string, string>>;
  onChange: (logic: FieldLogic[]) => void;
}

/**
 * A condition on `source` that holds as it is: its first option for a choice, ticked for a
 * consent, "is not empty" for the rest, so a rule just added is complete.
 */
function conditionOn(source: FormFieldDef): Condition {
  if (source.kind === "consent") return { field: source.id, operator: "eq", value: true };
  if (hasOptions(source.kind)) return { field: source.id, operator: "eq", value: source.options?.[0] ?? "" };
  return { field: source.id, operator: "nnull" };
}

function ValueInput({
  source,
  condition,
  label,
  invalid,
  onChange,
}: {
  source: FormFieldDef | undefined;
  condition: Condition;
  label: string;
  invalid: boolean;
  onChange: (value: unknown) => void;
}) {
  if (!source || !needsValue(condition.operator) || source.kind === "consent") return null;
  const status = invalid ? "error" : undefined;
  if (hasOptions(source.kind))
    return (
      <Select
        aria-label={label}
        status={status}
        value={condition.value as string | undefined}
        onChange={onChange}
        options={(source.options ?? []).map((o) => ({ value: o, label: o }))}
        style={{ flex: 1, minWidth: 0 }}
      />
    );
  if (source.kind === "number" || source.kind === "rating")
    return (
      <InputNumber
        aria-label={label}
        status={status}
        value={typeof condition.value === "number" ? condition.value : undefined}
        onChange={(v) => onChange(v ?? "")}
        style={{ flex: 1, minWidth: 0 }}
      />
    );
  return (
    <Input
      aria-label={label}
      status={status}
      value={typeof condition.value === "string" ? condition.value : ""}
      onChange={(e) => onChange(e.target.value)}
      maxLength={200}
      style={{ flex: 1, minWidth: 0 }}
    />
  );
}

export function LogicEditor({ field, fields, problems, onChange }: LogicEditorProps) {
  const logic = field.logic ?? [];
  // A page is skipped by what was answered before it: only the fields above it are offered.
  const before =
    field.kind === "page"
      ? fields.slice(
          0,
          Math.max(
            0,
            fields.findIndex((f) => f.id === field.id),
          ),
        )
      : fields;
  const sources = before.filter((f) => f.id !== field.id && answers(f));
  const setRule = (r: number, rule: FieldLogic) => onChange(logic.map((x, i) => (i === r ? rule : x)));
  const setCondition = (r: number, c: number, next: Condition) =>
    setRule(r, { ...logic[r], conditions: logic[r].conditions.map((x, i) => (i === c ? next : x)) });

  if (!sources.length)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description="Add another field first: logic shows, hides or requires this one by its answer."
      />
    );
  // A label twice (two "Email" fields) is told apart by the id.
  const sourceOptions = sources.map((f) => ({
    value: f.id,
    label: sources.some((g) => g !== f && g.label === f.label) ? `${f.label} (${f.id})` : f.label,
  }));

  return (
    <Flex vertical gap={8}>
      {logic.map((rule, r) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id of their own.
        <fieldset key={r} className="fb-rule" aria-label={`Rule ${r + 1}`}>
          <Flex gap={4} align="center" wrap>
            <Select
              aria-label={`Rule ${r + 1} action`}
              size="small"
              value={rule.action}
              onChange={(action) => setRule(r, { ...rule, action })}
              options={
                field.kind === "page"
                  ? (["show", "hide"] as const).map((a) => ({ value: a, label: PAGE_ACTION_LABELS[a] }))
                  : LOGIC_ACTIONS.map((a): { value: LogicAction; label: string } => ({
                      value: a,
                      label: ACTION_LABELS[a],
                    }))
              }
              style={{ width: field.kind === "page" ? 110 : 92 }}
            />
            <Typography.Text>if</Typography.Text>
            <Select
              aria-label={`Rule ${r + 1} match`}
              size="small"
              value={rule.match}
              onChange={(match) => setRule(r, { ...rule, match })}
              options={[
                { value: "all", label: "all" },
                { value: "any", label: "any" },
              ]}
              style={{ width: 64 }}
            />
            <Typography.Text>of these:</Typography.Text>
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined aria-hidden />}
              aria-label={`Remove rule ${r + 1}`}
              onClick={() => onChange(logic.filter((_, i) => i !== r))}
              style={{ marginInlineStart: "auto" }}
            />
          </Flex>
          {problems[`logic.${r}`] && (
            <Typography.Text type="danger">{problems[`logic.${r}`]}</Typography.Text>
          )}
          {rule.conditions.map((condition, c) => {
            const at = `logic.${r}.conditions.${c}`;
            const source = sources.find((f) => f.id === condition.field);
            const name = `Rule ${r + 1} condition ${c + 1}`;
            const message = problems[`${at}.field`] ?? problems[`${at}.operator`] ?? problems[`${at}.value`];
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id of their own.
              <div key={c} className="fb-condition">
                <Flex gap={4} align="center">
                  <Select
                    aria-label={`${name} field`}
                    status={problems[`${at}.field`] ? "error" : undefined}
                    value={source ? condition.field : undefined}
                    placeholder={condition.field ? `${condition.field} (removed)` : "Field"}
                    onChange={(id: string) => {
                      const next = sources.find((f) => f.id === id);
                      if (next) setCondition(r, c, conditionOn(next));
                    }}
                    options={sourceOptions}
                    showSearch
                    optionFilterProp="label"
                    style={{ flex: 1, minWidth: 0 }}
                  />
                  <Button
                    type="text"
                    size="small"
                    icon={<CloseOutlined aria-hidden />}
                    aria-label={`Remove ${name.toLowerCase()}`}
                    onClick={() =>
                      setRule(r, { ...rule, conditions: rule.conditions.filter((_, i) => i !== c) })
                    }
                  />
                </Flex>
                {source && (
                  <Flex gap={4} align="center" style={{ marginTop: 4 }}>
                    <Select
                      aria-label={`${name} operator`}
                      status={problems[`${at}.operator`] ? "error" : undefined}
                      value={condition.operator}
                      onChange={(operator: string) =>
                        setCondition(r, c, {
                          ...condition,
                          operator,
                          ...(needsValue(operator) ? {} : { value: undefined }),
                        })
                      }
                      options={operatorsFor(source.kind).map(([value, label]) => ({ value, label }))}
                      style={{ width: needsValue(condition.operator) ? 150 : "100%" }}
                    />
                    <ValueInput
                      source={source}
                      condition={condition}
                      label={`${name} value`}
                      invalid={Boolean(problems[`${at}.value`])}
                      onChange={(value) => setCondition(r, c, { ...condition, value })}
                    />
                  </Flex>
                )}
                {message && <Typography.Text type="danger">{message}</Typography.Text>}
              </div>
            );
          })}
          <Button
            size="small"
            type="dashed"
            icon={<PlusOutlined aria-hidden />}
            disabled={rule.conditions.length >= MAX_CONDITIONS}
            onClick={() => setRule(r, { ...rule, conditions: [...rule.conditions, conditionOn(sources[0])] })}
          >
            Add condition
          </Button>
        </fieldset>
      ))}
      <Button
        icon={<PlusOutlined aria-hidden />}
        disabled={logic.length >= MAX_RULES}
        onClick={() =>
          onChange([...logic, { action: "show", match: "all", conditions: [conditionOn(sources[0])] }])
        }
      >
        Add rule
      </Button>
    </Flex>
  );
}
