/**
 * The mails of a new submission: the notification (to Destination, Cc, Bcc; Reply-To the
 * respondent) and the confirmation to the respondent, their templates filled from the answers.
 */
import { answerText } from "../../../schemas/form-answers";
import type { FormDefinition } from "../../../schemas/form-definition";
import type { OutgoingMail } from "../../mail/mailer";
import type { PublishedForm } from "./forms.service";

/** What the mails are made of: the form and the answers stored. */
type Answered = { form: PublishedForm; answers: Record<string, unknown> };

/** `{{field_id}}`, `{{form}}` and `{{answers}}` of a template, filled from a submission. */
export function fillTemplate(
  template: string,
  def: FormDefinition,
  formName: string,
  answers: Record<string, unknown>,
) {
  const fields = new Map(def.fields.map((f) => [f.id, f]));
  return template.replace(/\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g, (whole, name: string) => {
    if (name === "form") return formName;
    if (name === "answers")
      return def.fields
        .filter((f) => Object.hasOwn(answers, f.id))
        .map((f) => `${f.label}: ${answerText(f, answers[f.id])}`)
        .join("\n");
    const field = fields.get(name);
    return field ? answerText(field, Object.hasOwn(answers, name) ? answers[name] : undefined) : whole;
  });
}

/** The notification (to Destination, Cc, Bcc; Reply-To the respondent) and the confirmation. */
export function mailsOf(item: Answered): OutgoingMail[] {
  const { definition, name } = item.form;
  const mail = definition.settings.mail;
  const respondent =
    mail.replyToField && typeof item.answers[mail.replyToField] === "string"
      ? (item.answers[mail.replyToField] as string)
      : undefined;
  const out: OutgoingMail[] = [];
  if (mail.isEmail && mail.Destination.length)
    out.push({
      to: mail.Destination,
      cc: mail.sendCc,
      bcc: mail.sendBcc,
      replyTo: respondent,
      subject: oneLine(fillTemplate(mail.subject || `New answer to ${name}`, definition, name, item.answers)),
      text: fillTemplate(mail.body || "{{answers}}", definition, name, item.answers),
    });
  if (mail.confirmation?.enabled && respondent)
    out.push({
      to: respondent,
      subject: oneLine(fillTemplate(mail.confirmation.subject, definition, name, item.answers)),
      text: fillTemplate(mail.confirmation.body, definition, name, item.answers),
    });
  return out;
}

/** A subject is one line: answers with line breaks cannot add headers. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ").slice(0, 250);
