/**
 * Connect a BigCommerce store, or change a connected one (its name, a new API token). The server
 * checks the store before it keeps anything; what it refuses lands under the field it is about
 * ("BigCommerce refused this API token" under the token).
 */
import { Alert, Checkbox, Form, Input, Modal, Typography } from "antd";
import { useState } from "react";
import type { StoreConnection } from "../../../schemas/store";
import { showFieldErrors } from "../../components/form-errors";
import { createConnection, updateConnection } from "./store-api";

interface Values {
  name: string;
  storeHash: string;
  token: string;
  isDefault: boolean;
}

const FIELDS = new Set(["name", "storeHash", "token", "isDefault"]);

export function ConnectionDialog({
  open,
  editing,
  first,
  onDone,
  onCancel,
}: {
  open: boolean;
  /** The connection to change; none: a new one. */
  editing: StoreConnection | null;
  /** No store is connected yet: the new one is the default whatever is ticked. */
  first: boolean;
  onDone: (connection: StoreConnection) => void;
  onCancel: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (values: Values) => {
    setSaving(true);
    setError(null);
    try {
      const token = values.token?.trim();
      const saved = editing
        ? await updateConnection(editing.id, {
            ...(values.name.trim() !== editing.name ? { name: values.name.trim() } : {}),
            ...(token ? { token } : {}),
          })
        : await createConnection({
            platform: 13,
            name: values.name.trim(),
            storeHash: values.storeHash.trim(),
            token,
            isDefault: values.isDefault,
          });
      onDone(saved);
    } catch (err) {
      setError(showFieldErrors(form, err, FIELDS));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={editing ? `Change ${editing.name}` : "Connect a BigCommerce store"}
      open={open}
      onCancel={onCancel}
      onOk={() => form.submit()}
      okText={editing ? "Save" : "Check and connect"}
      confirmLoading={saving}
      destroyOnHidden
      afterOpenChange={(visible) => {
        if (!visible) setError(null);
      }}
    >
      {/* Made anew at each opening (destroyOnHidden): its first values are the connection's. */}
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={save}
        disabled={saving}
        initialValues={
          editing
            ? { name: editing.name, storeHash: editing.storeHash, token: "", isDefault: editing.isDefault }
            : { name: "", storeHash: "", token: "", isDefault: first }
        }
      >
        {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 16 }} />}
        <Form.Item
          name="name"
          label="Name"
          rules={[{ required: true, whitespace: true, message: "Give the store a name" }]}
        >
          <Input autoFocus maxLength={120} placeholder="Main store" />
        </Form.Item>
        <Form.Item
          name="storeHash"
          label="Store hash"
          extra={
            <>
              The code in your store's API path:{" "}
              <Typography.Text code>api.bigcommerce.com/stores/&lt;store hash&gt;/v3</Typography.Text>
            </>
          }
          rules={
            editing
              ? []
              : [
                  { required: true, message: "Enter the store hash" },
                  { pattern: /^[A-Za-z0-9]+$/, message: "A store hash has only letters and digits" },
                ]
          }
        >
          <Input maxLength={40} disabled={Boolean(editing)} autoComplete="off" spellCheck={false} />
        </Form.Item>
        <Form.Item
          name="token"
          label={editing ? "New API token (optional)" : "API token"}
          extra="The access token of a store-level API account that may read products and make carts. It is stored encrypted and never shown again."
          rules={editing ? [] : [{ required: true, whitespace: true, message: "Enter the API token" }]}
        >
          <Input.Password autoComplete="new-password" maxLength={500} spellCheck={false} />
        </Form.Item>
        {!editing && (
          <Form.Item name="isDefault" valuePropName="checked">
            <Checkbox disabled={first}>Make it the default store</Checkbox>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
