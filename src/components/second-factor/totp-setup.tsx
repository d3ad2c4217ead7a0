/**
 * Setting up an authenticator app: the QR code, the secret as text for typing in by hand, and
 * the code that confirms it. Used on My account and at a sign-in that requires a second factor.
 */
import { Alert, Button, Flex, Form, type InputRef, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { appCodeOf, type TotpEnrolment } from "../../../schemas/second-factor";
import { showFieldErrors } from "../form-errors";
import { AppCodeItem } from "./app-code-item";
import { TotpQr } from "./totp-qr";

/** The secret in groups of four, as apps show it; the spaces are ignored when typed. */
export const groupedSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");

const FIELDS = new Set(["code"]);

export function TotpSetup({
  enrolment,
  onConfirm,
  confirmLabel = "Turn on",
}: {
  enrolment: TotpEnrolment;
  /** Sends the code; rejects with the server's refusal (shown under the field). */
  onConfirm: (code: string) => Promise<void>;
  confirmLabel?: string;
}) {
  const [form] = Form.useForm<{ code: string }>();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState(0);
  const field = useRef<InputRef>(null);
  // Disabled while checked, the field lost the focus: a refused code puts it back.
  useEffect(() => {
    if (refused) field.current?.focus({ cursor: "all" });
  }, [refused]);

  const onFinish = async ({ code }: { code: string }) => {
    setSubmitting(true);
    setError(null);
    try {
      await onConfirm(appCodeOf(code));
    } catch (err) {
      setError(showFieldErrors(form, err, FIELDS));
      setSubmitting(false);
      setRefused((n) => n + 1);
    }
  };

  return (
    <Flex vertical gap={16}>
      <Typography.Text>
        1. Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator,
        1Password, …).
      </Typography.Text>
      <Flex gap={20} align="center" wrap>
        <TotpQr uri={enrolment.uri} />
        <Flex vertical gap={4} style={{ minWidth: 0, flex: "1 1 200px" }}>
          <Typography.Text type="secondary">
            Cannot scan it? Enter this key in the app instead:
          </Typography.Text>
          {/* Wraps between groups of four, never inside one, so it reads as the app asks for it. */}
          <Typography.Paragraph
            code
            copyable={{ text: enrolment.secret, tooltips: ["Copy key", "Copied"] }}
            data-testid="totp-secret"
            style={{
              fontSize: 15,
              marginBottom: 0,
              whiteSpace: "normal",
              wordBreak: "normal",
              lineHeight: 1.8,
            }}
          >
            {groupedSecret(enrolment.secret)}
          </Typography.Paragraph>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            Time-based, 6 digits, every 30 seconds.
          </Typography.Text>
        </Flex>
      </Flex>
      <Form<{ code: string }>
        form={form}
        name="totp-confirm"
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        onValuesChange={() => setError(null)}
        disabled={submitting}
      >
        {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 12 }} />}
        <AppCodeItem
          label="2. Enter the 6-digit code the app shows"
          inputRef={field}
          style={{ maxWidth: 220 }}
        />
        <Button type="primary" htmlType="submit" loading={submitting}>
          {confirmLabel}
        </Button>
      </Form>
    </Flex>
  );
}
