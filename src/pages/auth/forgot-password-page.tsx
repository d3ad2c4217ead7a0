import { Alert, Button, Flex, Form } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { requestPasswordReset } from "../../../providers/auth-api";
import { AuthLayout } from "../../components/auth-layout";
import { EmailField, FormError } from "../../components/email-field";
import { getErrorMessage } from "../../lib/errors";

/** `/password_reset`: asks for a reset link. The answer never says whether the email exists. */
export default function ForgotPasswordPage() {
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async ({ email }: { email: string }) => {
    setError(null);
    setSubmitting(true);
    try {
      setSentMessage(await requestPasswordReset(email.trim()));
    } catch (err) {
      setError(getErrorMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout
      title="Forgot password"
      subtitle="Enter the email you sign in with and we will send you a link to choose a new password."
    >
      {sentMessage ? (
        <Alert type="success" showIcon message={sentMessage} role="status" style={{ marginBottom: 24 }} />
      ) : (
        <Form
          name="forgot-password"
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          disabled={submitting}
        >
          <FormError message={error} />
          <EmailField autoComplete="email" />
          <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
            Send reset link
          </Button>
        </Form>
      )}
      <Flex justify="center" style={{ marginTop: 16 }}>
        <Link to="/login">Back to sign in</Link>
      </Flex>
    </AuthLayout>
  );
}
