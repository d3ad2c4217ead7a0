/**
 * Sign-in, second step: the code from the authenticator app, or a recovery code. The
 * challenge from the password step is sent with it; it expires after five minutes, after
 * which the screen goes back to the password.
 */
import { KeyOutlined } from "@ant-design/icons";
import { Button, Flex, Form, Input, type InputRef, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { signInSecondStep } from "../../../providers/auth-api";
import { FormError } from "../../components/email-field";
import { AppCodeItem } from "../../components/second-factor/app-code-item";
import { getErrorMessage } from "../../lib/errors";

const WRONG_APP_CODE = "That code is not right. Check your phone's clock and enter the newest code.";
const WRONG_RECOVERY_CODE = "That recovery code is not right, or it has been used already.";

interface Props {
  challenge: string;
  /** Called once the tokens are stored. */
  onSignedIn: () => void;
  /** Back to the password (a new challenge). */
  onBack: () => void;
}

export default function SecondFactorStep({ challenge, onSignedIn, onBack }: Props) {
  const [form] = Form.useForm<{ code: string }>();
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const field = useRef<InputRef>(null);
  // The field was disabled while the code was checked, which took the focus away: a wrong
  // code puts it back, so the next code is typed straight away.
  useEffect(() => {
    if (error) field.current?.focus();
  }, [error]);

  const onFinish = async ({ code }: { code: string }) => {
    setError(null);
    setSubmitting(true);
    try {
      await signInSecondStep(challenge, code.trim());
      onSignedIn();
    } catch (err) {
      const message = getErrorMessage(err);
      // The API's terse 401 (docs/platform-api.md) said as My account says a wrong code.
      setError(message === "Invalid code" ? (recovery ? WRONG_RECOVERY_CODE : WRONG_APP_CODE) : message);
      setSubmitting(false);
      form.setFieldValue("code", "");
    }
  };

  const switchKind = () => {
    setRecovery((r) => !r);
    setError(null);
    form.resetFields();
  };

  return (
    <Form<{ code: string }>
      form={form}
      name="second-factor"
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      onValuesChange={() => setError(null)}
      disabled={submitting}
    >
      <Typography.Paragraph type="secondary">
        {recovery
          ? "Enter one of the recovery codes you saved when you set up your authenticator app. Each code works once."
          : "Open your authenticator app and enter the 6-digit code it shows for Atelier."}
      </Typography.Paragraph>
      <FormError message={error} />
      {recovery ? (
        <Form.Item
          key="recovery"
          label="Recovery code"
          name="code"
          rules={[{ required: true, message: "Enter a recovery code" }]}
        >
          <Input
            ref={field}
            autoFocus
            size="large"
            autoComplete="off"
            spellCheck={false}
            prefix={<KeyOutlined aria-hidden />}
          />
        </Form.Item>
      ) : (
        <AppCodeItem key="totp" label="Authentication code" inputRef={field} size="large" />
      )}
      <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
        Verify and sign in
      </Button>
      <Flex justify="space-between" style={{ marginTop: 16 }}>
        <Button type="link" style={{ padding: 0 }} onClick={onBack}>
          Back
        </Button>
        <Button type="link" style={{ padding: 0 }} onClick={switchKind}>
          {recovery ? "Use the code from my app" : "Use a recovery code"}
        </Button>
      </Flex>
    </Form>
  );
}
