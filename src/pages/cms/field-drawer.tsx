/**
 * One field of a content type, added or changed: its kind, title and API name, and the
 * options its kind has (lengths and pattern, range, choices, relation target, component,
 * allowed blocks, slug source, many values, default, help text, required, unique).
 */
import { Button, Checkbox, Col, Drawer, Form, Input, InputNumber, Row, Select, Space } from "antd";
import { useEffect } from "react";
import {
  type ContentField,
  FIELD_KIND_LABELS,
  FIELD_KINDS,
  FIELD_NAME,
  type FieldKind,
  RELATION_RESOURCES,
} from "../../../schemas/cms-fields";
import { keyRules, useKeyFromName } from "../../hooks/use-key-from-name";
import type { KeyRule } from "../../lib/key-from-name";
import type { ContentTypeRecord } from "./entry-definition";

/** A field's API name: snake_case, starting with a letter, 63 characters at most. */
const FIELD_NAME_RULE: KeyRule = { separator: "_", maxLength: 63, startWithLetter: true };

export interface FieldDraft {
  name: string;
  field: ContentField;
  required: boolean;
}

interface FieldDrawerProps {
  open: boolean;
  /** The field being changed; undefined adds a new one. */
  initial?: FieldDraft;
  /** Names the other fields of the type use. */
  takenNames: readonly string[];
  /** Text fields of the type (slug sources). */
  textFields: ReadonlyArray<{ name: string; title: string }>;
  types: readonly ContentTypeRecord[];
  /** The type being edited (a component may not contain itself). */
  self: string;
  onDone: (draft: FieldDraft) => void;
  onClose: () => void;
}

interface Values {
  kind: FieldKind;
  title: string;
  name: string;
  description?: string;
  required?: boolean;
  unique?: boolean;
  multiple?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  choices?: string[];
  target?: string;
  component?: string;
  components?: string[];
  slugFrom?: string;
  defaultText?: string;
  defaultNumber?: number;
  defaultBoolean?: boolean;
  /** One value in every locale (schemas/cms-locales.ts). */
  shared?: boolean;
}

const TEXT_KINDS: ReadonlySet<FieldKind> = new Set(["text", "longtext", "richtext", "email", "url"]);
const NUMBER_KINDS: ReadonlySet<FieldKind> = new Set(["integer", "decimal"]);

/** The form's values of a stored field. */
function valuesOf(draft: FieldDraft | undefined): Partial<Values> {
  if (!draft) return { kind: "text", required: false };
  const f = draft.field;
  const kind = f["x-kind"];
  return {
    kind,
    title: f.title,
    name: draft.name,
    description: f.description,
    required: draft.required,
    unique: f["x-unique"],
    shared: f["x-shared"],
    multiple: f["x-multiple"],
    minLength: f.minLength,
    maxLength: f.maxLength,
    pattern: f.pattern,
    minimum: f.minimum,
    maximum: f.maximum,
    choices: f.enum ? [...f.enum] : undefined,
    target: f["x-target"],
    component: f["x-component"],
    components: f["x-components"] ? [...f["x-components"]] : undefined,
    slugFrom: f["x-slugFrom"],
    defaultText: TEXT_KINDS.has(kind) || kind === "enum" ? (f.default as string | undefined) : undefined,
    defaultNumber: NUMBER_KINDS.has(kind) ? (f.default as number | undefined) : undefined,
    defaultBoolean: kind === "boolean" ? (f.default as boolean | undefined) : undefined,
  };
}

/** The stored field of the form's values: only the options its kind has. */
function fieldOf(v: Values): ContentField {
  const f: ContentField = { "x-kind": v.kind, title: v.title.trim() };
  const set = <K extends keyof ContentField>(key: K, value: ContentField[K] | undefined | null | "") => {
    if (value !== undefined && value !== null && value !== "") f[key] = value as ContentField[K];
  };
  set("description", v.description?.trim());
  if (TEXT_KINDS.has(v.kind)) {
    set("minLength", v.minLength);
    set("maxLength", v.maxLength);
    if (v.kind === "text" || v.kind === "longtext") set("pattern", v.pattern);
    set("default", v.defaultText);
  }
  if (NUMBER_KINDS.has(v.kind)) {
    set("minimum", v.minimum);
    set("maximum", v.maximum);
    set("default", v.defaultNumber);
  }
  if (v.kind === "boolean" && v.defaultBoolean !== undefined) f.default = v.defaultBoolean;
  if (v.kind === "enum") {
    set("enum", v.choices);
    set("default", v.defaultText);
  }
  if (v.kind === "slug") set("x-slugFrom", v.slugFrom);
  if (v.kind === "relation") set("x-target", v.target);
  if (v.kind === "component") set("x-component", v.component);
  if (v.kind === "dynamiczone") set("x-components", v.components);
  if (v.kind === "media" || v.kind === "relation" || v.kind === "component")
    if (v.multiple) f["x-multiple"] = true;
  if (v.unique && ["text", "email", "url", "integer"].includes(v.kind)) f["x-unique"] = true;
  if (v.shared) f["x-shared"] = true;
  return f;
}

export function FieldDrawer({
  open,
  initial,
  takenNames,
  textFields,
  types,
  self,
  onDone,
  onClose,
}: FieldDrawerProps) {
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch("kind", form) ?? "text";
  const isNew = !initial;
  const fillName = useKeyFromName(form, "name", FIELD_NAME_RULE, isNew);

  useEffect(() => {
    if (open) {
      form.resetFields();
      form.setFieldsValue(valuesOf(initial));
    }
  }, [open, initial, form]);

  const components = types.filter((t) => t.kind === "component" && t.apiName !== self);
  const targets = [
    ...types.filter((t) => t.kind !== "component").map((t) => ({ value: t.apiName, label: t.name })),
    ...Object.entries(RELATION_RESOURCES).map(([value, r]) => ({ value, label: r.label })),
  ];

  const submit = (v: Values) => onDone({ name: v.name, field: fieldOf(v), required: Boolean(v.required) });

  return (
    <Drawer
      title={isNew ? "Add a field" : `Change ${initial?.field.title}`}
      open={open}
      onClose={onClose}
      width={520}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" onClick={() => form.submit()}>
            {isNew ? "Add field" : "Apply"}
          </Button>
        </Space>
      }
    >
      <Form<Values> form={form} layout="vertical" onFinish={submit} requiredMark="optional">
        <Form.Item name="kind" label="Kind" rules={[{ required: true, message: "Choose a kind" }]}>
          <Select
            showSearch
            optionFilterProp="label"
            options={FIELD_KINDS.map((k) => ({ value: k, label: FIELD_KIND_LABELS[k] }))}
          />
        </Form.Item>
        <Form.Item
          name="title"
          label="Title"
          rules={[{ required: true, whitespace: true, message: "Give the field a title" }]}
        >
          <Input autoFocus maxLength={120} onChange={(e) => fillName(e.target.value)} />
        </Form.Item>
        <Form.Item
          name="name"
          label="API name"
          extra={isNew ? "How the field is named in the API" : "Renaming keeps the values already stored"}
          rules={[
            ...keyRules(
              "API name",
              FIELD_NAME_RULE,
              FIELD_NAME,
              "may only contain lower-case letters, digits and _, starting with a letter",
              "Give the field an API name",
            ),
            {
              validator: (_, value) =>
                value && takenNames.includes(value)
                  ? Promise.reject(new Error("Another field has this API name"))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input maxLength={FIELD_NAME_RULE.maxLength} />
        </Form.Item>
        <Form.Item name="description" label="Help text">
          <Input maxLength={500} />
        </Form.Item>
        <Space size="large">
          <Form.Item name="required" valuePropName="checked">
            <Checkbox>Required</Checkbox>
          </Form.Item>
          {["text", "email", "url", "integer"].includes(kind) && (
            <Form.Item name="unique" valuePropName="checked">
              <Checkbox>Unique</Checkbox>
            </Form.Item>
          )}
          {["media", "relation", "component"].includes(kind) && (
            <Form.Item name="multiple" valuePropName="checked">
              <Checkbox>{kind === "component" ? "Repeatable" : "Many"}</Checkbox>
            </Form.Item>
          )}
          <Form.Item
            name="shared"
            valuePropName="checked"
            tooltip="One value for every locale, such as a price or a photo; other fields are translated per locale"
          >
            <Checkbox>Same in every locale</Checkbox>
          </Form.Item>
        </Space>
        {TEXT_KINDS.has(kind) && (
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="minLength" label="Shortest length">
                <InputNumber min={0} max={200000} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="maxLength" label="Longest length">
                <InputNumber min={1} max={200000} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
          </Row>
        )}
        {(kind === "text" || kind === "longtext") && (
          <Form.Item name="pattern" label="Pattern" extra="A regular expression every value must match">
            <Input maxLength={500} />
          </Form.Item>
        )}
        {NUMBER_KINDS.has(kind) && (
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="minimum" label="Minimum">
                <InputNumber style={{ width: "100%" }} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="maximum" label="Maximum">
                <InputNumber style={{ width: "100%" }} />
              </Form.Item>
            </Col>
          </Row>
        )}
        {kind === "enum" && (
          <Form.Item
            name="choices"
            label="Choices"
            rules={[{ required: true, message: "List at least one choice" }]}
          >
            <Select mode="tags" tokenSeparators={[","]} placeholder="Type a choice and press Enter" />
          </Form.Item>
        )}
        {kind === "slug" && (
          <Form.Item name="slugFrom" label="Generated from" extra="Filled from this field when left empty">
            <Select allowClear options={textFields.map((t) => ({ value: t.name, label: t.title }))} />
          </Form.Item>
        )}
        {kind === "relation" && (
          <Form.Item
            name="target"
            label="Related to"
            rules={[{ required: true, message: "Choose what it relates to" }]}
          >
            <Select options={targets} />
          </Form.Item>
        )}
        {kind === "component" && (
          <Form.Item
            name="component"
            label="Component"
            rules={[{ required: true, message: "Choose a component" }]}
          >
            <Select
              options={components.map((c) => ({ value: c.apiName, label: c.name }))}
              notFoundContent="Create a component first"
            />
          </Form.Item>
        )}
        {kind === "dynamiczone" && (
          <Form.Item
            name="components"
            label="Allowed blocks"
            rules={[{ required: true, message: "Allow at least one component" }]}
          >
            <Select
              mode="multiple"
              options={components.map((c) => ({ value: c.apiName, label: c.name }))}
              notFoundContent="Create a component first"
            />
          </Form.Item>
        )}
        {(TEXT_KINDS.has(kind) || kind === "enum") && (
          <Form.Item name="defaultText" label="Default">
            <Input maxLength={2000} />
          </Form.Item>
        )}
        {NUMBER_KINDS.has(kind) && (
          <Form.Item name="defaultNumber" label="Default">
            <InputNumber style={{ width: "100%" }} />
          </Form.Item>
        )}
        {kind === "boolean" && (
          <Form.Item name="defaultBoolean" label="Default">
            <Select
              allowClear
              options={[
                { value: true, label: "Yes" },
                { value: false, label: "No" },
              ]}
            />
          </Form.Item>
        )}
      </Form>
    </Drawer>
  );
}
