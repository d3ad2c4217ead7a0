/**
 * The email dialog's checks, pure so they are tested alone: what it refuses before sending, and
 * where each of the server's field errors shows (`cc.2` under Cc, `assetIds.0` under Attachments).
 */
import type { FieldError } from "../../../lib/errors";

export type EmailField = "subject" | "body" | "cc" | "bcc" | "attachments" | "template";
export type EmailErrors = Partial<Record<EmailField, string>>;

/** The dialog's field of a server error's `field`, or null for one it has no place for. */
export function emailField(field: string): EmailField | null {
  const head = field.split(".")[0];
  if (head === "subject" || head === "body" || head === "cc" || head === "bcc") return head;
  if (head === "assetIds") return "attachments";
  if (head === "templateId") return "template";
  return null;
}

/** The server's errors by dialog field (the first of each), and the message of those left over. */
export function placeErrors(details: readonly FieldError[]): { fields: EmailErrors; other: string | null } {
  const fields: EmailErrors = {};
  let other: string | null = null;
  for (const d of details) {
    const field = emailField(d.field);
    if (field) fields[field] ??= d.message;
    else other ??= d.message;
  }
  return { fields, other };
}

/** True when the editor's HTML holds no words (an empty paragraph is no message). */
export const isEmptyHtml = (html: string | undefined) => !html?.replace(/<[^>]*>/g, "").trim();

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the dialog refuses before asking the server (it checks all of it again). */
export function checkEmail(draft: {
  subject: string;
  body: string | undefined;
  cc: readonly string[];
  bcc: readonly string[];
  attachmentsTooBig: boolean;
}): EmailErrors {
  const errors: EmailErrors = {};
  if (!draft.subject.trim()) errors.subject = "Write a subject";
  if (isEmptyHtml(draft.body) && !draft.body?.includes("<img")) errors.body = "Write a message";
  const badCc = draft.cc.find((a) => !EMAIL.test(a));
  if (badCc) errors.cc = `${badCc} is not an email address`;
  const badBcc = draft.bcc.find((a) => !EMAIL.test(a));
  if (badBcc) errors.bcc = `${badBcc} is not an email address`;
  if (draft.attachmentsTooBig) errors.attachments = "The attachments are too big together";
  return errors;
}
