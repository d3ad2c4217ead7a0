import { LockOutlined } from "@ant-design/icons";
import { Alert, Button, Checkbox, Form, Input } from "antd";
import { useState } from "react";
import { PASSWORD_MIN_LENGTH } from "../../../schemas/auth";
import { showFieldErrors } from "../../components/form-errors";
import { changeMyPassword, passwordChangedMessage } from "./account-api";

interface ChangePasswordValues {
  currentPassword: string;
  newPassword: string;
  confirm: string;
  signOutOtherDevices: boolean;
}

const FIELDS = new Set(["currentPassword", "newPassword"]);

/**
 * Current password, the new one twice, and whether to sign out the other devices. Server
 * refusals (wrong current password, a too common new one) land under their field.
 */
export function ChangePasswordForm() {
  const [form] = Form.useForm<ChangePasswordValues>();
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onFinish = async (values: ChangePasswordValues) => {
    setSubmitting(true);
    setDone(null);
    setError(null);
    try {
      const answer = await changeMyPassword({
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
        signOutOtherDevices: values.signOutOtherDevices,
      });
      form.resetFields();
      setDone(passwordChangedMessage(answer, values.signOutOtherDevices));
    } catch (err) {
      setError(showFieldErrors(form, err, FIELDS));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<ChangePasswordValues>
      form={form}
      name="change-password"
      layout="vertical"
      requiredMark={false}
      initialValues={{ signOutOtherDevices: true }}
      onFinish={onFinish}
      onValuesChange={() => setDone(null)}
      disabled={submitting}
      style={{ maxWidth: 440 }}
    >
      {done && <Alert type="success" showIcon role="status" message={done} style={{ marginBottom: 16 }} />}
      {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 16 }} />}
      <Form.Item
        label="Current password"
        name="currentPassword"
        rules={[{ required: true, message: "Enter your current password" }]}
      >
        <Input.Password
          autoFocus
          autoComplete="current-password"
          prefix={<LockOutlined aria-hidden />}
          maxLength={200}
        />
      </Form.Item>
      <Form.Item
        label="New password"
        name="newPassword"
        extra={`At least ${PASSWORD_MIN_LENGTH} characters. Common passwords are refused.`}
        rules={[
          { required: true, message: "Enter a new password" },
          { min: PASSWORD_MIN_LENGTH, message: `Use at least ${PASSWORD_MIN_LENGTH} characters` },
        ]}
      >
        <Input.Password autoComplete="new-password" prefix={<LockOutlined aria-hidden />} maxLength={200} />
      </Form.Item>
      <Form.Item
        label="Confirm new password"
        name="confirm"
        dependencies={["newPassword"]}
        rules={[
          { required: true, message: "Confirm the new password" },
          ({ getFieldValue }) => ({
            validator: (_, value) =>
              !value || getFieldValue("newPassword") === value
                ? Promise.resolve()
                : Promise.reject(new Error("The passwords do not match")),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" prefix={<LockOutlined aria-hidden />} maxLength={200} />
      </Form.Item>
      <Form.Item name="signOutOtherDevices" valuePropName="checked" extra="This device stays signed in.">
        <Checkbox>Sign out my other devices</Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={submitting}>
        Change password
      </Button>
    </Form>
  );
}
