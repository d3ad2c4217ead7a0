import { LockOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, Form, Input, Result } from "antd";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { resetPassword } from "../../../providers/auth-api";
import { PASSWORD_MIN_LENGTH } from "../../../schemas/auth";
import { AuthLayout } from "../../components/auth-layout";
import { getErrorMessage } from "../../lib/errors";

interface ResetValues {
  password: string;
  confirm: string;
}

/** `/resetpassword/:id` and `/resetpassword/:length/:id` (the older link form; `length` is unused). */
export default function ResetPasswordPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async ({ password }: ResetValues) => {
    setError(null);
    setSubmitting(true);
    try {
      setDone(await resetPassword(id, password));
    } catch (err) {
      setError(getErrorMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

  if (done) {
    return (
      <AuthLayout title="Reset password">
        <Result
          status="success"
          title="Password changed"
          subTitle={done}
          extra={
            <Button type="primary" onClick={() => navigate("/login")} autoFocus>
              Back to sign in
            </Button>
          }
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Reset password"
      subtitle={`Choose a new password of at least ${PASSWORD_MIN_LENGTH} characters.`}
    >
      <Form<ResetValues>
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
          label="New password"
          name="password"
          hasFeedback
          rules={[
            { required: true, message: "Enter a new password" },
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
            { required: true, message: "Confirm the new password" },
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
          Set new password
        </Button>
      </Form>
      <Flex justify="center" style={{ marginTop: 16 }}>
        <Link to="/login">Back to sign in</Link>
      </Flex>
    </AuthLayout>
  );
}
