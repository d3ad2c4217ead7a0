/**
 * The mail settings of a form: the notification mail (on or off, Destination, Cc and Bcc, its
 * subject and body with placeholders, the Reply-To field) and the confirmation mail to the
 * respondent, sent to the address answered in the Reply-To field.
 */
import { Card, Flex, Form, Select, Switch, Typography } from "antd";
import type { FormFieldDef, MailSettings } from "../../../schemas/form-definition";
import { EmailListInput } from "./email-list-input";
import { MailTemplate } from "./mail-template";
import { PanelItem } from "./panel-item";

interface MailSettingsCardProps {
  mail: MailSettings;
  fields: readonly FormFieldDef[];
  /** The messages at a path under `settings.mail.`, and under it. */
  messagesAt: (path: string) => string[];
  onChange: (mail: MailSettings, path: string) => void;
}

export function MailSettingsCard({ mail, fields, messagesAt, onChange }: MailSettingsCardProps) {
  const set = <K extends keyof MailSettings>(key: K, value: MailSettings[K]) =>
    onChange({ ...mail, [key]: value }, key);
  const emailFields = fields.filter((f) => f.kind === "email");
  const replyOptions = emailFields.map((f) => ({ value: f.id, label: `${f.label} (${f.id})` }));
  const confirmation = mail.confirmation;

  return (
    <Flex vertical gap={16}>
      <Card
        size="small"
        title="Notification mail"
        extra={
          <Flex gap={8} align="center">
            <label htmlFor="fs-mail-on">Send one for each answer</label>
            <Switch id="fs-mail-on" checked={mail.isEmail} onChange={(on) => set("isEmail", on)} />
          </Flex>
        }
      >
        <Form layout="vertical" component="div">
          <PanelItem
            id="fs-mail-destination"
            label="Destination"
            required={mail.isEmail}
            message={messagesAt("Destination")}
            extra="Who gets the answers. Press Enter, a comma or a space after each address."
          >
            <EmailListInput
              id="fs-mail-destination"
              value={mail.Destination}
              invalid={messagesAt("Destination").length > 0}
              onChange={(list) => set("Destination", list)}
            />
          </PanelItem>
          <PanelItem id="fs-mail-cc" label="Cc" message={messagesAt("sendCc")}>
            <EmailListInput
              id="fs-mail-cc"
              value={mail.sendCc}
              invalid={messagesAt("sendCc").length > 0}
              onChange={(list) => set("sendCc", list)}
            />
          </PanelItem>
          <PanelItem id="fs-mail-bcc" label="Bcc" message={messagesAt("sendBcc")}>
            <EmailListInput
              id="fs-mail-bcc"
              value={mail.sendBcc}
              invalid={messagesAt("sendBcc").length > 0}
              onChange={(list) => set("sendBcc", list)}
            />
          </PanelItem>
          <MailTemplate
            id="fs-mail"
            subject={mail.subject}
            body={mail.body}
            fields={fields}
            subjectMessage={messagesAt("subject")}
            bodyMessage={messagesAt("body")}
            onChange={({ subject, body }) => onChange({ ...mail, subject, body }, "subject")}
          />
          <PanelItem
            id="fs-mail-reply"
            label="Reply-To field"
            message={messagesAt("replyToField")}
            extra={
              emailFields.length
                ? "Replying to the notification writes to the address the respondent gave here."
                : "Add an email field to the form to reply to respondents."
            }
            className="fs-last"
          >
            <Select
              id="fs-mail-reply"
              allowClear
              placeholder="None"
              value={mail.replyToField ?? undefined}
              options={replyOptions}
              onChange={(value?: string) => set("replyToField", value ?? null)}
              notFoundContent="The form has no email field"
            />
          </PanelItem>
        </Form>
      </Card>
      <Card
        size="small"
        title="Confirmation mail to the respondent"
        extra={
          <Flex gap={8} align="center">
            <label htmlFor="fs-confirm-on">Send</label>
            <Switch
              id="fs-confirm-on"
              checked={confirmation.enabled}
              onChange={(enabled) =>
                onChange({ ...mail, confirmation: { ...confirmation, enabled } }, "confirmation")
              }
            />
          </Flex>
        }
      >
        <Form layout="vertical" component="div">
          {messagesAt("confirmation.enabled").map((m) => (
            <Typography.Paragraph key={m} type="danger">
              {m}
            </Typography.Paragraph>
          ))}
          <Typography.Paragraph type="secondary">
            Sent to the address answered in the Reply-To field
            {mail.replyToField ? ` (${mail.replyToField})` : ", once one is chosen above"}.
          </Typography.Paragraph>
          <MailTemplate
            id="fs-confirm"
            subject={confirmation.subject}
            body={confirmation.body}
            fields={fields}
            subjectMessage={messagesAt("confirmation.subject")}
            bodyMessage={messagesAt("confirmation.body")}
            onChange={({ subject, body }) =>
              onChange({ ...mail, confirmation: { ...confirmation, subject, body } }, "confirmation.subject")
            }
          />
        </Form>
      </Card>
    </Flex>
  );
}
