import { LockOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, Form, Input } from "antd";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { signIn } from "../../../providers/auth-api";
import { forgetLogoutNotice, readLogoutNotice } from "../../../providers/session-end";
import { hasSession } from "../../../providers/token-store";
import { isSecondFactorChallenge, type SecondFactorChallenge } from "../../../schemas/second-factor";
import { AuthLayout } from "../../components/auth-layout";
import { EmailField, FormError } from "../../components/email-field";
import { getErrorMessage } from "../../lib/errors";
import { redirectTarget } from "./redirect-target";

// The second step's screens load only for the accounts that have one (the first load stays small).
const SecondFactorStep = lazy(() => import("./second-factor-step"));
const EnrolStep = lazy(() => import("./enrol-step"));

interface LoginValues {
  email: string;
  password: string;
}

/**
 * `/login`: sign-in with email and password. A user the system signed out (account
 * disabled, refresh failed, device signed out elsewhere) is told why above the form, once.
 */
export default function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [signedOutBecause] = useState(() => readLogoutNotice());
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const target = redirectTarget(location.search, location.state);

  // Shown on this visit only: a reload or a later sign-out does not repeat it.
  useEffect(() => forgetLogoutNotice(), []);

  if (hasSession() && !submitting) return <Navigate to={target} replace />;

  const onFinish = async ({ email, password }: LoginValues) => {
    setError(null);
    setSubmitting(true);
    try {
      const answer = await signIn(email.trim(), password);
      if (isSecondFactorChallenge(answer)) {
        setChallenge(answer);
        setSubmitting(false);
        return;
      }
      navigate(target, { replace: true });
    } catch (err) {
      setError(getErrorMessage(err));
      setSubmitting(false);
    }
  };

  if (challenge) {
    const step = {
      challenge: challenge.challenge,
      onSignedIn: () => navigate(target, { replace: true }),
      onBack: () => setChallenge(null),
    };
    return challenge.secondFactor === "enrol" ? (
      <AuthLayout
        title="Set up two-step sign-in"
        subtitle="Your organisation requires a code from an authenticator app at sign-in. Set one up to finish signing in."
      >
        <Suspense fallback={null}>
          <EnrolStep {...step} />
        </Suspense>
      </AuthLayout>
    ) : (
      <AuthLayout title="Two-step sign-in" subtitle="Your password was right. Now confirm it is you.">
        <Suspense fallback={null}>
          <SecondFactorStep {...step} />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Sign in" subtitle="Welcome back. Sign in to the Atelier back-office.">
      <Form<LoginValues>
        name="login"
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        onValuesChange={() => setError(null)}
        disabled={submitting}
      >
        {signedOutBecause && !error && (
          <Alert
            type="warning"
            showIcon
            role="status"
            data-testid="signed-out-reason"
            message={signedOutBecause.message}
            description={signedOutBecause.description}
            style={{ marginBottom: 16 }}
          />
        )}
        <FormError message={error} />
        <EmailField autoComplete="username" />
        <Form.Item
          label="Password"
          name="password"
          rules={[{ required: true, message: "Enter your password" }]}
        >
          <Input.Password
            autoComplete="current-password"
            size="large"
            prefix={<LockOutlined aria-hidden />}
          />
        </Form.Item>
        <Flex justify="flex-end" style={{ marginTop: -8, marginBottom: 16 }}>
          <Link to="/password_reset">Forgot password?</Link>
        </Flex>
        <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
          Sign in
        </Button>
      </Form>
    </AuthLayout>
  );
}
