import { MailOutlined } from "@ant-design/icons";
import { Alert, Form, Input } from "antd";

/** The email field of the sign-in and forgot-password forms. */
export function EmailField({ autoComplete }: { autoComplete: "email" | "username" }) {
  return (
    <Form.Item
      label="Email"
      name="email"
      rules={[
        { required: true, message: "Enter your email" },
        { type: "email", message: "Enter a valid email address" },
      ]}
    >
      <Input
        type="email"
        autoComplete={autoComplete}
        autoFocus
        size="large"
        prefix={<MailOutlined aria-hidden />}
        placeholder="you@company.com"
      />
    </Form.Item>
  );
}

/** A form-level error above the fields, announced to screen readers. */
export function FormError({ message }: { message: string | null }) {
  return message ? (
    <Alert type="error" showIcon message={message} role="alert" style={{ marginBottom: 16 }} />
  ) : null;
}
