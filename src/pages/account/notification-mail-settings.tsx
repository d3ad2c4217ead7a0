/**
 * My account → "Notifications by mail": one switch per kind of notification the user's
 * modules send. The bell always shows them; a switch on also sends each one by mail. Saved
 * at each change.
 */
import { Alert, Flex, Skeleton, Switch, Typography } from "antd";
import { useEffect, useState } from "react";
import type { NotificationKind, NotificationPreferences } from "../../../schemas/notifications";
import { getErrorMessage } from "../../lib/errors";
import { getMailPreferences, setMailPreference } from "../notifications/notifications-api";

export function NotificationMailSettings() {
  const [prefs, setPrefs] = useState<NotificationPreferences | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<NotificationKind | null>(null);

  useEffect(() => {
    getMailPreferences().then(setPrefs, (err) => setError(getErrorMessage(err)));
  }, []);

  const change = async (kind: NotificationKind, mail: boolean) => {
    setSaving(kind);
    setError(null);
    try {
      setPrefs(await setMailPreference(kind, mail));
    } catch (err) {
      setError(getErrorMessage(err));
    } finally {
      setSaving(null);
    }
  };

  if (!prefs) {
    return error ? <Alert type="error" showIcon role="alert" message={error} /> : <Skeleton active />;
  }
  if (!prefs.kinds.length) {
    return <Typography.Text type="secondary">None of your modules sends notifications.</Typography.Text>;
  }
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        Notifications always appear under the bell at the top of the page. Switch a kind on to get it by mail
        as well.
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon role="alert" message={error} />}
      {prefs.kinds.map((k) => {
        const id = `notification-mail-${k.kind}`;
        return (
          <Flex key={k.kind} align="center" justify="space-between" gap={16}>
            <div>
              <label htmlFor={id}>
                <Typography.Text strong>{k.label}</Typography.Text>
              </label>
              <br />
              <Typography.Text type="secondary" id={`${id}-help`}>
                {k.description}
              </Typography.Text>
            </div>
            <Switch
              id={id}
              aria-describedby={`${id}-help`}
              checked={k.mail}
              loading={saving === k.kind}
              disabled={saving !== null}
              onChange={(on) => void change(k.kind, on)}
            />
          </Flex>
        );
      })}
    </Flex>
  );
}
