import { App, Checkbox, Form, Input, Modal } from "antd";
import { useState } from "react";
import type { ResourceDefinition } from "../../../resources/contract";
import { type SavedView, type SavedViewState, VIEW_NAME_MAX } from "../../../schemas/saved-views";
import { getErrorMessage, getFieldErrors } from "../../lib/errors";
import { createView, updateView } from "./views-api";

interface ViewNameModalProps {
  def: ResourceDefinition;
  /** The view to rename; null saves the list as a new view. */
  view: SavedView | null;
  state: SavedViewState;
  onClose: () => void;
  onSaved: (view: SavedView, created: boolean) => void;
}

/** "Save as view" (a name, shared or not) and "Rename…", with the server's words on the field. */
export function ViewNameModal({ def, view, state, onClose, onSaved }: ViewNameModalProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string; shared: boolean }>();
  const [saving, setSaving] = useState(false);

  const submit = async ({ name, shared }: { name: string; shared: boolean }) => {
    setSaving(true);
    try {
      const saved = view
        ? await updateView(def, view.id, { name })
        : await createView(def, { name, shared: Boolean(shared), state });
      message.success(view ? `View renamed to “${saved.name}”` : `View “${saved.name}” saved`);
      onSaved(saved, !view);
    } catch (error) {
      const fields = getFieldErrors(error);
      const named = fields?.filter((f) => f.field === "name" || f.field === "shared") ?? [];
      if (named.length)
        form.setFields(named.map((f) => ({ name: f.field as "name" | "shared", errors: [f.message] })));
      else message.error(getErrorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={view ? `Rename “${view.name}”` : "Save the list as a view"}
      okText={view ? "Rename" : "Save view"}
      onOk={() => form.submit()}
      okButtonProps={{ loading: saving }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ name: view?.name ?? "", shared: false }}
        onFinish={submit}
        requiredMark={false}
      >
        <Form.Item
          name="name"
          label="Name"
          rules={[{ required: true, whitespace: true, message: "Name the view" }]}
          extra={view ? undefined : "Saves the filters, sort, columns and page size shown now."}
        >
          <Input autoFocus maxLength={VIEW_NAME_MAX} placeholder="e.g. Active in Mumbai" />
        </Form.Item>
        {!view && (
          <Form.Item name="shared" valuePropName="checked" style={{ marginBottom: 0 }}>
            <Checkbox>Share with everyone who has this module</Checkbox>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
