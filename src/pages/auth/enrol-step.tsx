/**
 * Sign-in of an account that must have a second factor and has none: it sets one up here
 * before it gets a session (the challenge allows nothing else), then sees its recovery codes
 * once; the session starts when they have been saved.
 */
import { Alert, Button, Flex, Skeleton } from "antd";
import { useEffect, useState } from "react";
import { confirmEnrolmentAtSignIn, enrolAtSignIn, finishSignIn } from "../../../providers/auth-api";
import type { SignInResponse } from "../../../schemas/auth";
import type { TotpEnrolment } from "../../../schemas/second-factor";
import { RecoveryCodesList } from "../../components/second-factor/recovery-codes";
import { TotpSetup } from "../../components/second-factor/totp-setup";
import { getErrorMessage } from "../../lib/errors";

interface Props {
  challenge: string;
  onSignedIn: () => void;
  onBack: () => void;
}

export default function EnrolStep({ challenge, onSignedIn, onBack }: Props) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ answer: SignInResponse; codes: string[] } | null>(null);

  useEffect(() => {
    enrolAtSignIn(challenge).then(setEnrolment, (err) => setError(getErrorMessage(err)));
  }, [challenge]);

  if (done)
    return (
      <Flex vertical gap={16}>
        <RecoveryCodesList codes={done.codes} />
        <Button
          type="primary"
          size="large"
          block
          onClick={() => {
            finishSignIn(done.answer);
            onSignedIn();
          }}
        >
          I have saved my codes, continue
        </Button>
      </Flex>
    );

  return (
    <Flex vertical gap={16}>
      {error && <Alert type="error" showIcon role="alert" message={error} />}
      {enrolment ? (
        <TotpSetup
          enrolment={enrolment}
          confirmLabel="Verify and sign in"
          onConfirm={async (code) => {
            const { recoveryCodes, ...answer } = await confirmEnrolmentAtSignIn(challenge, code);
            setDone({ answer, codes: recoveryCodes });
          }}
        />
      ) : (
        !error && <Skeleton active />
      )}
      <Button type="link" style={{ padding: 0, alignSelf: "flex-start" }} onClick={onBack}>
        Back to sign-in
      </Button>
    </Flex>
  );
}
