import { Alert, Button, Form, Input, Space, Typography } from "antd";
import { useState } from "react";
import { CALDAV_PRESETS, type CalendarConnection } from "../../../../schemas/crm-calendar";
import { showFieldErrors } from "../../../components/form-errors";
import { connectCalendar } from "./calendar-api";

interface Values {
  url: string;
  username: string;
  password: string;
}

const FIELDS = new Set(["url", "username", "password"]);

/**
 * The CalDAV account form: server address (with where the usual providers keep theirs), user
 * name and app password. The server checks the account before saving it; what it refuses lands
 * under the field it is about ("refused the user name or app password" under the password).
 */
export function ConnectionForm({
  initial,
  onConnected,
  onCancel,
}: {
  initial?: { url: string; username: string };
  onConnected: (connection: CalendarConnection) => void;
  onCancel?: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onFinish = async (values: Values) => {
    setSubmitting(true);
    setError(null);
    try {
      onConnected(
        await connectCalendar({
          url: values.url.trim(),
          username: values.username,
          password: values.password,
        }),
      );
    } catch (err) {
      setError(showFieldErrors(form, err, FIELDS));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      name="calendar-connection"
      layout="vertical"
      requiredMark={false}
      initialValues={initial}
      onFinish={onFinish}
      disabled={submitting}
      className="crm-calendar-form"
    >
      {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 16 }} />}
      <Form.Item
        label="Calendar server URL"
        name="url"
        rules={[{ required: true, message: "Enter your calendar server's address" }]}
        extra={
          <div className="crm-calendar-presets">
            <Typography.Text type="secondary">Where to find yours:</Typography.Text>
            <ul>
              {CALDAV_PRESETS.map((p) => (
                <li key={p.name}>
                  <strong>{p.name}</strong>{" "}
                  {p.url.includes("<") ? (
                    <code>{p.url}</code>
                  ) : (
                    <Button
                      type="link"
                      size="small"
                      className="crm-calendar-preset-use"
                      onClick={() => form.setFieldValue("url", p.url)}
                      aria-label={`Use ${p.name}'s address ${p.url}`}
                    >
                      <code>{p.url}</code>
                    </Button>
                  )}
                  <div className="crm-calendar-preset-hint">{p.hint}</div>
                </li>
              ))}
              <li>
                <strong>Google Calendar</strong>
                <div className="crm-calendar-preset-hint">
                  Google's CalDAV accepts only an OAuth 2.0 sign-in, not an app password, so it cannot be
                  connected here yet: connect another CalDAV calendar.
                </div>
              </li>
            </ul>
          </div>
        }
      >
        <Input placeholder="https://caldav.example.com" autoComplete="url" inputMode="url" maxLength={2000} />
      </Form.Item>
      <Form.Item
        label="User name"
        name="username"
        rules={[{ required: true, message: "Enter your user name" }]}
      >
        <Input autoComplete="username" maxLength={320} />
      </Form.Item>
      <Form.Item
        label="App password"
        name="password"
        rules={[{ required: true, message: "Enter the app password" }]}
        extra="An app password made for Atelier in your calendar provider's security settings, not your main password. It is stored encrypted and never shown again."
      >
        <Input.Password autoComplete="new-password" maxLength={1000} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {initial ? "Reconnect" : "Connect"}
        </Button>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      </Space>
    </Form>
  );
}
