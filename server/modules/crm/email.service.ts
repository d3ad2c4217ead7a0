/**
 * Email from a client's page (issue 16, spec §3 `emailModal`): the subject and rich-text body
 * (from a template or written), merge fields filled from the client and the sender, files from
 * the asset manager attached, sent through the mailer (SMTP, else the outbox) with the thread's
 * reply address, stored as a message and put on the timeline in one transaction.
 *
 * That last part is `queueClientEmail` (client-email.ts), which runs in a caller's transaction: a
 * sequence's email step sends through it too.
 */
import type { EmailPreview, SendEmailRequest, SendEmailResponse } from "../../../schemas/crm-messages";
import { EMAIL_ATTACHMENTS_MAX_BYTES } from "../../../schemas/crm-messages";
import { asSentence, invalidInputMessage } from "../../../schemas/error-messages";
import { type MergeValues, renderMergeFields, unknownMergeFields } from "../../../schemas/merge-fields";
import type { AppContext } from "../../context";
import { badRequest, conflict, type FieldError, notFound } from "../../http/errors";
import { htmlToText } from "../../mail/html-text";
import type { OutboxAttachment } from "../../mail/mailer";
import { sanitiseHtml } from "../cms/entry-values";
import { messageSender, type QueuedEmail, queueClientEmail } from "./client-email";
import { messageMergeValues } from "./merge-values";
import { getMessage } from "./messages";
import { type Db, timelineChanged } from "./timeline";

/** A 400 naming each field: one field's own sentence, or how many need correcting. */
const invalid = (errors: FieldError[]) =>
  badRequest(errors.length === 1 ? asSentence(errors[0]) : invalidInputMessage(errors), errors);

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MB`;

async function clientOf(db: Db, clientId: string) {
  const client = await db
    .selectFrom("clients")
    .select(["id", "name", "email", "phone", "company", "job_title", "custom", "consent_email"])
    .where("id", "=", clientId)
    .executeTakeFirst();
  if (!client) throw notFound("Client not found");
  return { ...client, custom: typeof client.custom === "string" ? JSON.parse(client.custom) : client.custom };
}

/** The template a message starts from, refused unless it is an email template. */
async function emailTemplate(db: Db, templateId: string | null | undefined) {
  if (!templateId) return null;
  const template = await db
    .selectFrom("crm_templates")
    .select(["id", "channel", "subject", "body"])
    .where("id", "=", templateId)
    .executeTakeFirst();
  if (!template) throw invalid([{ field: "templateId", message: "This template no longer exists" }]);
  if (template.channel !== "email")
    throw invalid([{ field: "templateId", message: "This is an SMS template: choose an email template" }]);
  return template;
}

interface Rendered {
  subject: string;
  html: string;
  text: string;
}

/**
 * The subject and body as the client gets them: the body sanitised as rich text is, then its
 * merge fields filled (values escaped). Unknown merge fields, and a subject or body left empty,
 * are 400s naming the field.
 */
function render(subject: string, body: string, values: MergeValues): Rendered {
  const errors: FieldError[] = [];
  const html = sanitiseHtml(body);
  for (const [field, template] of [
    ["subject", subject],
    ["body", html],
  ] as const) {
    const unknown = unknownMergeFields(template, values);
    if (unknown.length)
      errors.push({
        field,
        message: `has ${unknown.length === 1 ? "an unknown merge field" : "unknown merge fields"}: ${unknown.map((k) => `{{${k}}}`).join(", ")}`,
      });
  }
  if (errors.length) throw invalid(errors);
  const out = {
    subject: renderMergeFields(subject, values).replace(/\s+/g, " ").trim(),
    html: renderMergeFields(html, values, { html: true }),
    text: "",
  };
  out.text = htmlToText(out.html);
  if (!out.subject) errors.push({ field: "subject", message: "is empty once its merge fields are filled" });
  if (!out.text && !/<img\b/i.test(out.html)) errors.push({ field: "body", message: "must not be empty" });
  if (errors.length) throw invalid(errors);
  return out;
}

/** The subject and body to send: the request's, else its template's; both required in the end. */
function subjectAndBody(
  input: Pick<SendEmailRequest, "subject" | "body">,
  template: Awaited<ReturnType<typeof emailTemplate>>,
) {
  const subject = input.subject ?? template?.subject ?? undefined;
  const body = input.body ?? template?.body ?? undefined;
  const missing: FieldError[] = [];
  if (!subject?.trim()) missing.push({ field: "subject", message: "is required" });
  if (!body?.trim()) missing.push({ field: "body", message: "is required" });
  if (missing.length) throw invalid(missing);
  return { subject: subject as string, body: body as string };
}

/** The assets to attach, as outbox attachments; refused when one is gone or all are too big. */
async function attachmentsOf(
  db: Db,
  assetIds: readonly string[],
): Promise<Array<OutboxAttachment & { assetId: string }>> {
  if (!assetIds.length) return [];
  const rows = await db
    .selectFrom("dam_assets")
    .select(["id", "name", "original_name", "storage_key", "mime", "size"])
    .where("id", "in", assetIds)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = assetIds.flatMap((id, i) =>
    byId.has(id) ? [] : [{ field: `assetIds.${i}`, message: "This file is no longer in the asset manager" }],
  );
  if (missing.length) throw invalid(missing);
  const files = assetIds.map((id) => {
    const a = byId.get(id)!;
    return {
      assetId: id,
      storageKey: a.storage_key,
      filename: a.original_name || a.name,
      contentType: a.mime,
      size: Number(a.size),
    };
  });
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (total > EMAIL_ATTACHMENTS_MAX_BYTES) {
    const message = `Attachments may add up to ${megabytes(EMAIL_ATTACHMENTS_MAX_BYTES)}; these are ${megabytes(total)}`;
    throw invalid([{ field: "assetIds", message }]);
  }
  return files;
}

/** The thread a message continues, refused unless it is this client's. */
async function threadOf(db: Db, threadId: string | null | undefined, clientId: string) {
  if (!threadId) return null;
  const thread = await db
    .selectFrom("crm_email_threads")
    .select(["id", "token", "message_id"])
    .where("id", "=", threadId)
    .where("client_id", "=", clientId)
    .executeTakeFirst();
  if (!thread)
    throw invalid([{ field: "threadId", message: "This conversation is not one with this client" }]);
  // Threaded under the conversation's latest mail (a reply of the client's, often).
  const last = await db
    .selectFrom("crm_messages")
    .select("message_id")
    .where("thread_id", "=", thread.id)
    .where("channel", "=", "email")
    .where("message_id", "is not", null)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return { ...thread, inReplyTo: last?.message_id ?? thread.message_id };
}

/** What the client would get, without sending it (the dialog's preview). */
export async function previewEmail(
  ctx: AppContext,
  input: Pick<SendEmailRequest, "clientId" | "subject" | "body" | "templateId">,
  userId: string,
): Promise<EmailPreview> {
  const client = await clientOf(ctx.db, input.clientId);
  const template = await emailTemplate(ctx.db, input.templateId);
  const { subject, body } = subjectAndBody(input, template);
  return render(subject, body, await messageMergeValues(ctx, client, userId));
}

/** Sends an email to a client (see the file's comment) in its own transaction; answers the stored message. */
export async function sendEmail(
  ctx: AppContext,
  input: SendEmailRequest,
  userId: string,
): Promise<SendEmailResponse> {
  const client = await clientOf(ctx.db, input.clientId);
  const to = client.email;
  if (!to) throw conflict(`${client.name} has no email address: add one to their record first`);
  if (!client.consent_email)
    throw conflict(
      `${client.name} has not agreed to receive email ("Agrees to email" is off on their record)`,
    );
  const template = await emailTemplate(ctx.db, input.templateId);
  const { subject, body } = subjectAndBody(input, template);
  const sender = await messageSender(ctx.db, userId);
  if (!sender) throw notFound("Your user account no longer exists");
  const rendered = render(subject, body, await messageMergeValues(ctx, client, userId));
  const attachments = await attachmentsOf(ctx.db, input.assetIds ?? []);
  const thread = await threadOf(ctx.db, input.threadId, client.id);

  // Never null: no dedupe key was given.
  const queued = (await ctx.db.transaction().execute((trx) =>
    queueClientEmail(ctx, trx, {
      client: { id: client.id, email: to },
      sender,
      ...rendered,
      thread,
      cc: input.cc,
      bcc: input.bcc,
      attachments,
      templateId: template?.id ?? null,
    }),
  )) as QueuedEmail;
  ctx.mailer.wake();
  timelineChanged(ctx, [client.id], userId);
  const message = await getMessage(ctx.db, queued.id);
  return { message: message!, replyTo: queued.replyTo ?? sender.email };
}
