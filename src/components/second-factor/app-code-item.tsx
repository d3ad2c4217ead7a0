/**
 * The 6-digit code from an authenticator app, as a form item: digits kept as typed or pasted
 * ("123 456", "123-456"), the phone's one-time-code autofill, and the same words everywhere.
 * Used by setting up a second factor and by sign-in's second step.
 */
import { SafetyCertificateOutlined } from "@ant-design/icons";
import { Form, Input, type InputRef } from "antd";
import type { CSSProperties, Ref } from "react";
import { appCodeOf } from "../../../schemas/second-factor";

export function AppCodeItem({
  label,
  inputRef,
  size,
  style,
}: {
  label: string;
  inputRef: Ref<InputRef>;
  size?: "large";
  style?: CSSProperties;
}) {
  return (
    <Form.Item
      label={label}
      name="code"
      normalize={appCodeOf}
      rules={[
        { required: true, message: "Enter the code from your app" },
        { pattern: /^\d{6}$/, message: "The code is six digits" },
      ]}
    >
      <Input
        ref={inputRef}
        autoFocus
        size={size}
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="123456"
        prefix={<SafetyCertificateOutlined aria-hidden />}
        style={{ letterSpacing: 2, ...style }}
      />
    </Form.Item>
  );
}
