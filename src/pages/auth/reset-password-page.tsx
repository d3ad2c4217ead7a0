import { LockOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, Form, Input, Result, Spin } from "antd";
import { useCallback, useEffect, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { describeResetLink, type PasswordLinkKind, resetPassword } from "../../../providers/auth-api";
import { PASSWORD_MIN_LENGTH } from "../../../schemas/auth";
import { AuthLayout } from "../../components/auth-layout";
import { LoadError } from "../../components/load-error";
import { getErrorMessage, getFieldErrors } from "../../lib/errors";

interface ResetValues {
  password: string;
  confirm: string;
}

/** The page's words for each kind of link: a forgotten password, or an invitation. */
const WORDING: Record<
  PasswordLinkKind,
  {
    title: string;
    subtitle: string;
    submit: string;
    doneTitle: string;
    field: string;
    required: string;
    confirmRequired: string;
  }
> = {
  reset: {
    title: "Reset password",
    subtitle: `Choose a new password of at least ${PASSWORD_MIN_LENGTH} characters.`,
    submit: "Set new password",
    doneTitle: "Password changed",
    field: "New password",
    required: "Enter a new password",
    confirmRequired: "Confirm the new password",
  },
  invite: {
    title: "Set your password",
    subtitle: `Welcome to Atelier. Choose a password of at least ${PASSWORD_MIN_LENGTH} characters to finish setting up your account.`,
    submit: "Set password",
    doneTitle: "Password set",
    field: "Password",
    required: "Enter a password",
    confirmRequired: "Confirm the password",
  },
};

type LinkState =
  | { status: "checking" }
  | { status: "invalid"; message: string }
  /** The check got no verdict (offline, no answer, server error, rate limited). */
  | { status: "unchecked"; error: unknown }
  | { status: "ok"; kind: PasswordLinkKind };

/**
 * `/resetpassword/:id` and `/resetpassword/:length/:id` (the older link form; `length` is unused).
 * The same link serves password resets and invitations; the server says which, and the page
 * words itself accordingly ("Set your password" for an invited user). The link is checked
 * when the page opens (without using it up): a used or expired one says so at once, with the
 * way to ask for a new one, instead of after two passwords were typed.
 */
export default function ResetPasswordPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const [form] = Form.useForm<ResetValues>();
  const [link, setLink] = useState<LinkState>({ status: "checking" });
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const check = useCallback(
    (isCurrent: () => boolean = () => true) =>
      describeResetLink(id).then(
        (kind) => isCurrent() && setLink({ status: "ok", kind }),
        (err) => {
          if (!isCurrent()) return;
          // A 400 is the verdict "dead link"; anything else is no verdict, shown with a Retry.
          const status = (err as { response?: { status?: number } }).response?.status;
          setLink(
            status === 400
              ? { status: "invalid", message: getErrorMessage(err) }
              : { status: "unchecked", error: err },
          );
        },
      ),
    [id],
  );

  useEffect(() => {
    let current = true;
    void check(() => current);
    return () => {
      current = false;
    };
  }, [check]);

  const kind = link.status === "ok" ? link.kind : "reset";
  const words = WORDING[kind];

  const onFinish = async ({ password }: ResetValues) => {
    setError(null);
    setSubmitting(true);
    try {
      setDone(await resetPassword(id, password));
    } catch (err) {
      // A refused password (too common) belongs under its field; a dead link above the form.
      const onPassword = getFieldErrors(err).filter((f) => f.field === "password");
      if (onPassword.length) form.setFields([{ name: "password", errors: onPassword.map((f) => f.message) }]);
      else setError(getErrorMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

  if (link.status === "checking") {
    return (
      <AuthLayout title="Checking your link">
        <Flex role="status" aria-label="Checking your link" justify="center" style={{ padding: 24 }}>
          <Spin />
        </Flex>
      </AuthLayout>
    );
  }

  if (link.status === "unchecked") {
    return (
      <AuthLayout title="Checking your link">
        <LoadError
          what="link details"
          error={link.error}
          onRetry={() => check()}
          extra={<Link to="/login">Back to sign in</Link>}
        />
      </AuthLayout>
    );
  }

  if (link.status === "invalid") {
    return (
      <AuthLayout title="Link not valid">
        <Result
          status="warning"
          title={link.message}
          subTitle="Links work once and expire after a while. Ask for a new one below, or ask your administrator to send a new invitation."
          extra={
            <Flex vertical gap={12} align="center">
              <Button type="primary" onClick={() => navigate("/password_reset")} autoFocus>
                Request a new reset link
              </Button>
              <Link to="/login">Back to sign in</Link>
            </Flex>
          }
        />
      </AuthLayout>
    );
  }

  if (done) {
    return (
      <AuthLayout title={words.title}>
        <Result
          status="success"
          title={words.doneTitle}
          subTitle={done}
          extra={
            <Button type="primary" onClick={() => navigate("/login")} autoFocus>
              {kind === "invite" ? "Sign in" : "Back to sign in"}
            </Button>
          }
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={words.title} subtitle={words.subtitle}>
      <Form<ResetValues>
        form={form}
        name="reset-password"
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        disabled={submitting}
      >
        {error && (
          <Alert
            type="error"
            showIcon
            role="alert"
            message={error}
            description={<Link to="/password_reset">Request a new reset link</Link>}
            style={{ marginBottom: 16 }}
          />
        )}
        <Form.Item
          label={words.field}
          name="password"
          hasFeedback
          extra="Common passwords are refused."
          rules={[
            { required: true, message: words.required },
            { min: PASSWORD_MIN_LENGTH, message: `Use at least ${PASSWORD_MIN_LENGTH} characters` },
          ]}
        >
          <Input.Password
            autoComplete="new-password"
            autoFocus
            size="large"
            prefix={<LockOutlined aria-hidden />}
          />
        </Form.Item>
        <Form.Item
          label="Confirm password"
          name="confirm"
          dependencies={["password"]}
          hasFeedback
          rules={[
            { required: true, message: words.confirmRequired },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || getFieldValue("password") === value
                  ? Promise.resolve()
                  : Promise.reject(new Error("The passwords do not match")),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" size="large" prefix={<LockOutlined aria-hidden />} />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
          {words.submit}
        </Button>
      </Form>
      <Flex justify="center" style={{ marginTop: 16 }}>
        <Link to="/login">Back to sign in</Link>
      </Flex>
    </AuthLayout>
  );
}
