/**
 * My account → "Two-step sign-in": whether an authenticator app is set up, setting one up
 * (QR code, key as text, a confirming code, then the recovery codes once), new recovery codes
 * and turning it off (each with a code; off is not offered while the policy requires it).
 */
import { SafetyCertificateOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Flex, Form, Input, Modal, Skeleton, Space, Tag, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import type { SecondFactorStatus, TotpEnrolment } from "../../../schemas/second-factor";
import { DateText } from "../../components/date-text";
import { showFieldErrors } from "../../components/form-errors";
import { RecoveryCodesList } from "../../components/second-factor/recovery-codes";
import { TotpSetup } from "../../components/second-factor/totp-setup";
import { getErrorMessage } from "../../lib/errors";
import {
  beginEnrolment,
  confirmEnrolment,
  getSecondFactor,
  newRecoveryCodes,
  turnOffSecondFactor,
} from "./second-factor-api";

type Dialog =
  | { kind: "enrol"; enrolment: TotpEnrolment }
  | { kind: "codes"; codes: string[] }
  | { kind: "regenerate" }
  | { kind: "disable" };

const CODE_FIELDS = new Set(["code"]);

/** Asks for an app code (or a recovery code) before a change to the second factor. */
function CodePrompt({
  action,
  danger,
  onSubmit,
}: {
  action: string;
  danger?: boolean;
  onSubmit: (code: string) => Promise<void>;
}) {
  const [form] = Form.useForm<{ code: string }>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Form<{ code: string }>
      form={form}
      layout="vertical"
      requiredMark={false}
      disabled={busy}
      onValuesChange={() => setError(null)}
      onFinish={async ({ code }) => {
        setBusy(true);
        try {
          await onSubmit(code.trim());
        } catch (err) {
          setError(showFieldErrors(form, err, CODE_FIELDS));
          setBusy(false);
        }
      }}
    >
      {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 12 }} />}
      <Form.Item
        label="Code from your authenticator app, or a recovery code"
        name="code"
        rules={[{ required: true, message: "Enter a code" }]}
      >
        <Input autoFocus autoComplete="one-time-code" style={{ maxWidth: 260 }} />
      </Form.Item>
      <Button type="primary" danger={danger} htmlType="submit" loading={busy}>
        {action}
      </Button>
    </Form>
  );
}

export function SecondFactorCard() {
  const [status, setStatus] = useState<SecondFactorStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [starting, setStarting] = useState(false);

  const load = useCallback(() => {
    getSecondFactor().then(setStatus, (err) => setError(getErrorMessage(err)));
  }, []);
  useEffect(load, [load]);

  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      setDialog({ kind: "enrol", enrolment: await beginEnrolment() });
    } catch (err) {
      setError(getErrorMessage(err));
    } finally {
      setStarting(false);
    }
  };
  const close = () => {
    setDialog(null);
    load();
  };

  const titles: Record<Dialog["kind"], string> = {
    enrol: "Set up two-step sign-in",
    codes: "Your recovery codes",
    regenerate: "New recovery codes",
    disable: "Turn off two-step sign-in",
  };

  return (
    <Card
      title={
        <Space>
          <SafetyCertificateOutlined aria-hidden />
          Two-step sign-in
        </Space>
      }
      id="second-factor"
    >
      {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 16 }} />}
      {!status ? (
        !error && <Skeleton active paragraph={{ rows: 1 }} />
      ) : status.enabled ? (
        <Flex vertical gap={12}>
          <Space wrap>
            <Tag color="green">On</Tag>
            <Typography.Text>
              Signing in asks for a code from your authenticator app. Set up{" "}
              <DateText value={status.enabledAt} />.
            </Typography.Text>
          </Space>
          <Typography.Text type="secondary">
            {status.recoveryCodesLeft === 1
              ? "1 recovery code left."
              : `${status.recoveryCodesLeft} recovery codes left.`}
            {status.required && " Your organisation requires two-step sign-in for your account."}
          </Typography.Text>
          <Space wrap>
            <Button onClick={() => setDialog({ kind: "regenerate" })}>New recovery codes</Button>
            {!status.required && (
              <Button danger onClick={() => setDialog({ kind: "disable" })}>
                Turn off
              </Button>
            )}
          </Space>
        </Flex>
      ) : (
        <Flex justify="space-between" align="center" gap={16} wrap>
          <Typography.Text type="secondary" style={{ maxWidth: 520 }}>
            Protect your account with a code from an authenticator app on your phone, asked for after your
            password.
            {status.required &&
              " Your organisation requires it: you will be asked to set it up at your next sign-in."}
          </Typography.Text>
          <Button type="primary" loading={starting} onClick={() => void start()}>
            Set up
          </Button>
        </Flex>
      )}
      <Modal
        title={dialog ? titles[dialog.kind] : undefined}
        open={dialog !== null}
        onCancel={close}
        footer={
          dialog?.kind === "codes" ? (
            <Button type="primary" onClick={close}>
              I have saved my codes
            </Button>
          ) : null
        }
        maskClosable={dialog?.kind !== "codes"}
        width={600}
        destroyOnHidden
      >
        {dialog?.kind === "enrol" && (
          <TotpSetup
            enrolment={dialog.enrolment}
            onConfirm={async (code) =>
              setDialog({ kind: "codes", codes: (await confirmEnrolment(code)).recoveryCodes })
            }
          />
        )}
        {dialog?.kind === "codes" && <RecoveryCodesList codes={dialog.codes} />}
        {dialog?.kind === "regenerate" && (
          <>
            <Typography.Paragraph type="secondary">
              Ten new codes replace the ones you have: the old ones stop working.
            </Typography.Paragraph>
            <CodePrompt
              action="Make new codes"
              onSubmit={async (code) =>
                setDialog({ kind: "codes", codes: (await newRecoveryCodes(code)).recoveryCodes })
              }
            />
          </>
        )}
        {dialog?.kind === "disable" && (
          <>
            <Typography.Paragraph type="secondary">
              Signing in will ask for your password only. Your recovery codes stop working.
            </Typography.Paragraph>
            <CodePrompt
              action="Turn off"
              danger
              onSubmit={async (code) => {
                await turnOffSecondFactor(code);
                close();
              }}
            />
          </>
        )}
      </Modal>
    </Card>
  );
}
