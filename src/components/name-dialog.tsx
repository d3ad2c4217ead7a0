import { Form, Input, Modal } from "antd";
import { useEffect, useState } from "react";
import { FOLDER_NAME_MAX } from "../../schemas/dam";
import { getErrorMessage, getFieldErrors } from "../lib/errors";

export interface NameDialogProps {
  /** Open with this title ("New folder", "Rename folder"); null: closed. */
  title: string | null;
  initial?: string;
  okText: string;
  /** The field's label; a folder name (the default) may not contain slashes. */
  label?: string;
  maxLength?: number;
  /** Saves the name; a thrown API error is shown on the field. */
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}

/** Asks for a name (a folder's by default): Enter saves, the server's reason shows under the field. */
export function NameDialog({
  title,
  initial = "",
  okText,
  label = "Folder name",
  maxLength = FOLDER_NAME_MAX,
  onSubmit,
  onClose,
}: NameDialogProps) {
  const folder = label === "Folder name";
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (title) form.setFieldsValue({ name: initial });
  }, [title, initial, form]);

  const submit = async ({ name }: { name: string }) => {
    setSaving(true);
    try {
      await onSubmit(name.trim());
      onClose();
    } catch (error) {
      const fields = getFieldErrors(error);
      form.setFields([{ name: "name", errors: [fields[0]?.message ?? getErrorMessage(error)] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={title}
      open={title !== null}
      okText={okText}
      onOk={() => form.submit()}
      okButtonProps={{ loading: saving }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item
          name="name"
          label={label}
          rules={[
            {
              required: true,
              whitespace: true,
              message: folder ? "Give the folder a name" : "Give it a name",
            },
            ...(folder ? [{ pattern: /^[^/\\]*$/, message: "A folder name cannot contain / or \\" }] : []),
          ]}
        >
          <Input autoFocus maxLength={maxLength} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
