/**
 * The selected field's properties: label, id (fixed once the form published it: its answers are
 * stored under it), kind (changing it replaces the validation, spec §4), placeholder, help,
 * required, the hidden field's value, validation by kind, options, and conditional logic.
 * Apply saves them into the field list and closes the panel; Cancel goes back to the field as
 * it is in the list.
 */
import { LockOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, Form, Input, Select, Switch, Tag, Tooltip, Typography } from "antd";
import { answers, type FormFieldDef, hasOptions } from "../../../schemas/form-definition";
import { FORM_FIELD_KINDS, FORM_FIELD_LABELS, type FormFieldKind } from "../../../schemas/forms";
import { plural } from "../../lib/text";
import { FieldKindIcon } from "./field-kind-icons";
import { LogicEditor } from "./logic-editor";
import { OptionsEditor } from "./options-editor";
import { PanelItem } from "./panel-item";
import { hasValidationInputs, ValidationInputs } from "./validation-inputs";

const PLACEHOLDER_KINDS = new Set<FormFieldKind>([
  "text",
  "longtext",
  "email",
  "phone",
  "number",
  "date",
  "dropdown",
]);

/** Paths whose messages show at an input of the panel; others show above the inputs. */
const PLACED =
  /^(label|id|placeholder|help|defaultValue|options(\.\d+)?|validation\.\w+|logic\.\d+(\.conditions\.\d+\.(field|operator|value))?)$/;

interface PropertyPanelProps {
  field: FormFieldDef;
  fields: readonly FormFieldDef[];
  edited: boolean;
  /** The id may no longer change (the published form has this field). */
  idLocked: boolean;
  problems: Readonly<Record<string, string>>;
  onEdit: (patch: Partial<FormFieldDef>) => void;
  onChangeKind: (kind: FormFieldKind) => void;
  onApply: () => void;
  onCancel: () => void;
}

const KIND_OPTIONS = FORM_FIELD_KINDS.map((kind) => ({
  value: kind,
  label: (
    <Flex gap={8} align="center">
      <FieldKindIcon kind={kind} />
      {FORM_FIELD_LABELS[kind]}
    </Flex>
  ),
  title: FORM_FIELD_LABELS[kind],
}));

export function PropertyPanel(props: PropertyPanelProps) {
  const { field, fields, edited, idLocked, problems, onEdit, onChangeKind, onApply, onCancel } = props;
  const count = Object.keys(problems).length;
  // A heading and a page break show text only: a title and words under it, no answer.
  const heading = field.kind === "heading" || field.kind === "page";
  const page = field.kind === "page";
  const logicCount = field.logic?.length ?? 0;
  const sections = [
    ...(hasValidationInputs(field.kind)
      ? [
          {
            key: "validation",
            label: "Validation",
            children: (
              <ValidationInputs
                field={field}
                problems={problems}
                onChange={(validation) => onEdit({ validation })}
              />
            ),
          },
        ]
      : []),
    ...(answers(field) || heading
      ? [
          {
            key: "logic",
            label: (
              <Flex gap={8} align="center">
                {page ? "Skip rules" : "Conditional logic"}
                {logicCount > 0 && <Tag color="purple">{plural(logicCount, "rule")}</Tag>}
              </Flex>
            ),
            children: (
              <LogicEditor
                field={field}
                fields={fields}
                problems={problems}
                onChange={(logic) => onEdit({ logic })}
              />
            ),
          },
        ]
      : []),
  ];

  return (
    <section className="fb-panel" aria-label={`Properties of ${field.label || field.id}`}>
      <Flex align="center" gap={8} className="fb-panel-head">
        <span className="fb-card-icon">
          <FieldKindIcon kind={field.kind} />
        </span>
        <Typography.Text strong ellipsis style={{ flex: 1 }}>
          {field.label || "(no label)"}
        </Typography.Text>
        {edited && <Tag color="gold">Not applied</Tag>}
      </Flex>
      <Form layout="vertical" component="div" className="fb-panel-body" requiredMark>
        {Object.entries(problems)
          .filter(([path]) => !PLACED.test(path) || (heading && path === "id"))
          .map(([path, message]) => (
            <Alert key={path} type="error" showIcon message={message} style={{ marginBottom: 12 }} />
          ))}
        {page && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            message="A page break starts a new page with this title. Visitors go through the pages with Back and Next; a rule below can skip the page by earlier pages' answers."
          />
        )}
        <PanelItem
          id="fb-p-label"
          label={page ? "Page title" : heading ? "Title" : "Label"}
          message={problems.label}
          required
        >
          <Input
            id="fb-p-label"
            value={field.label}
            maxLength={300}
            onChange={(e) => onEdit({ label: e.target.value })}
          />
        </PanelItem>
        {!heading && (
          <PanelItem
            id="fb-p-id"
            label={
              <Flex gap={4} align="center">
                Field id
                {idLocked && (
                  <Tooltip title="Published answers are stored under this id, so it no longer changes">
                    <LockOutlined aria-label="Fixed since published" />
                  </Tooltip>
                )}
              </Flex>
            }
            message={problems.id}
            extra={idLocked ? undefined : "The answer's key in submissions, exports and mail placeholders."}
            required
          >
            <Input
              id="fb-p-id"
              value={field.id}
              maxLength={63}
              disabled={idLocked}
              className="fb-mono"
              onChange={(e) => onEdit({ id: e.target.value.trim() })}
            />
          </PanelItem>
        )}
        <PanelItem id="fb-p-kind" label="Kind">
          <Select
            id="fb-p-kind"
            value={field.kind}
            options={KIND_OPTIONS}
            optionLabelProp="title"
            onChange={onChangeKind}
          />
        </PanelItem>
        {PLACEHOLDER_KINDS.has(field.kind) && (
          <PanelItem id="fb-p-placeholder" label="Placeholder" message={problems.placeholder}>
            <Input
              id="fb-p-placeholder"
              value={field.placeholder ?? ""}
              maxLength={200}
              onChange={(e) => onEdit({ placeholder: e.target.value })}
            />
          </PanelItem>
        )}
        <PanelItem
          id="fb-p-help"
          label={page ? "Text under the title" : heading ? "Text" : "Help text"}
          message={problems.help}
        >
          <Input.TextArea
            id="fb-p-help"
            value={field.help ?? ""}
            maxLength={1000}
            autoSize={{ minRows: 1, maxRows: 5 }}
            onChange={(e) => onEdit({ help: e.target.value })}
          />
        </PanelItem>
        {field.kind === "hidden" && (
          <PanelItem
            id="fb-p-default"
            label="Value sent"
            message={problems.defaultValue}
            extra={`A URL parameter named ${field.id} wins over it.`}
          >
            <Input
              id="fb-p-default"
              value={field.defaultValue ?? ""}
              maxLength={1000}
              onChange={(e) => onEdit({ defaultValue: e.target.value })}
            />
          </PanelItem>
        )}
        {answers(field) && field.kind !== "hidden" && (
          <PanelItem id="fb-p-required" label="Required">
            <Switch
              id="fb-p-required"
              checked={Boolean(field.required)}
              onChange={(required) => onEdit({ required })}
            />
          </PanelItem>
        )}
        {hasOptions(field.kind) && (
          <OptionsEditor
            options={field.options ?? []}
            problems={problems}
            onChange={(options) => onEdit({ options })}
          />
        )}
        {sections.length > 0 && (
          // Native disclosures: keyboard-operable as they are, and no Collapse in the bundle.
          <div className="fb-sections">
            {sections.map((section) => (
              <details
                key={section.key}
                className="fb-section"
                open={section.key === "validation" || (section.key === "logic" && logicCount > 0)}
              >
                <summary>{section.label}</summary>
                <div className="fb-section-body">{section.children}</div>
              </details>
            ))}
          </div>
        )}
      </Form>
      <Flex gap={8} align="center" className="fb-panel-foot">
        <Button type="primary" onClick={onApply} disabled={count > 0}>
          Apply
        </Button>
        <Button onClick={onCancel} disabled={!edited}>
          Cancel
        </Button>
        {count > 0 && (
          <Typography.Text type="danger" className="fb-panel-count">
            {count === 1 ? "1 thing to fix" : `${count} things to fix`}
          </Typography.Text>
        )}
      </Flex>
    </section>
  );
}
