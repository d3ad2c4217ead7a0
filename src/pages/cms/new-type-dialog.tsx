/** The builder's New type dialog: kind, name and API name (made from the name until edited). */
import { App, Form, Input, Modal, Radio } from "antd";
import { useState } from "react";
import { API_NAME, type ContentField, type ContentTypeKind } from "../../../schemas/cms-fields";
import { keyRules, useKeyFromName } from "../../hooks/use-key-from-name";
import { getErrorMessage } from "../../lib/errors";
import type { KeyRule } from "../../lib/key-from-name";
import { createContentType } from "./cms-api";
import type { ContentTypeRecord } from "./entry-definition";

export const KIND_NAMES: Record<ContentTypeKind, [one: string, many: string]> = {
  collection: ["Collection", "Collections"],
  single: ["Single", "Singles"],
  component: ["Component", "Components"],
};

/** A type's API name: kebab-case, starting with a letter, 63 characters at most. */
export const API_NAME_RULE: KeyRule = { separator: "-", maxLength: 63, startWithLetter: true };

export function NewTypeDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (t: ContentTypeRecord) => void;
}) {
  const [form] = Form.useForm<{ kind: ContentTypeKind; name: string; apiName: string }>();
  const [saving, setSaving] = useState(false);
  const { message } = App.useApp();
  const fillApiName = useKeyFromName(form, "apiName", API_NAME_RULE);
  const create = async (v: { kind: ContentTypeKind; name: string; apiName: string }) => {
    setSaving(true);
    try {
      // A type starts with one field, its title (components may start empty).
      const properties: Record<string, ContentField> =
        v.kind === "component" ? {} : { title: { "x-kind": "text", title: "Title", maxLength: 200 } };
      const created = await createContentType({
        ...v,
        properties,
        required: v.kind === "component" ? [] : ["title"],
      });
      message.success(`${v.name} created`);
      form.resetFields();
      onCreated(created);
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      title="New content type"
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="Create"
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ kind: "collection" }} onFinish={create}>
        <Form.Item name="kind" label="Kind">
          <Radio.Group
            optionType="button"
            options={(Object.keys(KIND_NAMES) as ContentTypeKind[]).map((k) => ({
              value: k,
              label: KIND_NAMES[k][0],
            }))}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label="Name"
          rules={[{ required: true, whitespace: true, message: "Give the type a name" }]}
        >
          <Input autoFocus maxLength={120} onChange={(e) => fillApiName(e.target.value)} />
        </Form.Item>
        <Form.Item
          name="apiName"
          label="API name"
          extra="The path of its entries: /public-cms/{domain}/{API name}"
          rules={keyRules(
            "API name",
            API_NAME_RULE,
            API_NAME,
            "may only contain lower-case letters, digits and dashes, starting with a letter",
            "Give the type an API name",
          )}
        >
          <Input maxLength={API_NAME_RULE.maxLength} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
