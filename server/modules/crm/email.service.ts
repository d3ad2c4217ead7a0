/**
 * Email from a client's page (issue 16, spec §3 `emailModal`): the subject and rich-text body
 * (from a template or written), merge fields filled from the client and the sender, files from
 * the asset manager attached, sent through the mailer (SMTP, else the outbox) with the thread's
 * reply address, stored as a message and put on the timeline in one transaction.
 */
import type { EmailPreview, SendEmailRequest, SendEmailResponse } from "../../../schemas/crm-messages";
import { EMAIL_ATTACHMENTS_MAX_BYTES } from "../../../schemas/crm-messages";
import { asSentence, invalidInputMessage } from "../../../schemas/error-messages";
import { type MergeValues, renderMergeFields, unknownMergeFields } from "../../../schemas/merge-fields";
import type { AppContext } from "../../context";
import { badRequest, conflict, type FieldError, notFound } from "../../http/errors";
import { htmlToText } from "../../mail/html-text";
import { mailFromAddress, type OutboxAttachment } from "../../mail/mailer";
import { sanitiseHtml } from "../cms/entry-values";
import { newMessageId, newThreadToken, replyAddress } from "./email-threads";
import { messageMergeValues } from "./merge-values";
import { getMessage, touchThread } from "./messages";
import { addTimeline, type Db, timelineChanged } from "./timeline";

/** How much of a mail's text its timeline entry shows. */
const TIMELINE_BODY_MAX = 2000;

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

async function senderOf(db: Db, userId: string) {
  return db
    .selectFrom("users")
    .select(["id", "first_name", "last_name", "email"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
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

/** The domain of our Message-IDs: the reply domain, else MAIL_FROM's. */
function messageIdDomain(ctx: AppContext): string {
  return (
    ctx.config.crmInbound.domain ?? mailFromAddress(ctx.config.mailFrom).split("@")[1] ?? "atelier.invalid"
  );
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
  return render(subject, body, await messageMergeValues(ctx.db, client, userId));
}

/** Sends an email to a client (see the file's comment); answers the stored message. */
export async function sendEmail(
  ctx: AppContext,
  input: SendEmailRequest,
  userId: string,
): Promise<SendEmailResponse> {
  const client = await clientOf(ctx.db, input.clientId);
  if (!client.email) throw conflict(`${client.name} has no email address: add one to their record first`);
  if (!client.consent_email)
    throw conflict(
      `${client.name} has not agreed to receive email ("Agrees to email" is off on their record)`,
    );
  const template = await emailTemplate(ctx.db, input.templateId);
  const { subject, body } = subjectAndBody(input, template);
  const sender = await senderOf(ctx.db, userId);
  const rendered = render(subject, body, await messageMergeValues(ctx.db, client, userId));
  const attachments = await attachmentsOf(ctx.db, input.assetIds ?? []);
  const existing = await threadOf(ctx.db, input.threadId, client.id);

  const domain = ctx.config.crmInbound.domain;
  const token = existing?.token ?? newThreadToken();
  // Without a reply domain nothing comes back to the CRM: replies go to the sender instead.
  const replyTo = domain ? replyAddress(token, domain) : sender.email;
  const messageId = newMessageId(messageIdDomain(ctx));
  const senderName = `${sender.first_name} ${sender.last_name}`.trim();
  const cc = input.cc ?? [];
  const bcc = input.bcc ?? [];
  const fileList = attachments.map((a) => ({
    name: a.filename,
    contentType: a.contentType,
    size: a.size,
    assetId: a.assetId,
  }));

  const messageRowId = await ctx.db.transaction().execute(async (trx) => {
    const threadId =
      existing?.id ??
      (
        await trx
          .insertInto("crm_email_threads")
          .values({
            token,
            client_id: client.id,
            subject: rendered.subject,
            message_id: messageId,
            created_by: userId,
          })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    if (existing) await touchThread(trx, existing.id);
    const [outboxId] = await ctx.mailer.queue(
      [
        {
          to: client.email as string,
          cc,
          bcc,
          replyTo,
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
          fromName: senderName || undefined,
          messageId,
          inReplyTo: existing?.inReplyTo,
          attachments: attachments.map(({ assetId: _, ...file }) => file),
        },
      ],
      trx,
    );
    const message = await trx
      .insertInto("crm_messages")
      .values({
        channel: "email",
        direction: "out",
        client_id: client.id,
        thread_id: threadId,
        subject: rendered.subject,
        body: rendered.html,
        body_text: rendered.text,
        from_address: mailFromAddress(ctx.config.mailFrom),
        to_address: client.email as string,
        cc: JSON.stringify(cc),
        bcc: JSON.stringify(bcc),
        status: ctx.config.smtpUrl ? "queued" : "stored",
        message_id: messageId,
        outbox_id: outboxId,
        template_id: template?.id ?? null,
        actor_id: userId,
        meta: JSON.stringify({ attachments: fileList, replyTo, fromName: senderName }),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await addTimeline(trx, [
      {
        clientId: client.id,
        kind: "email_out",
        title: rendered.subject,
        body:
          rendered.text.length > TIMELINE_BODY_MAX
            ? `${rendered.text.slice(0, TIMELINE_BODY_MAX - 3)}...`
            : rendered.text,
        data: {
          from: senderName || sender.email,
          to: client.email,
          ...(cc.length ? { cc: cc.join(", ") } : {}),
          subject: rendered.subject,
          threadId,
          ...(fileList.length ? { attachments: fileList.map((f) => f.name).join(", ") } : {}),
        },
        refId: message.id,
        actorId: userId,
        dedupeKey: `email_out:${message.id}`,
      },
    ]);
    return message.id;
  });
  ctx.mailer.wake();
  timelineChanged(ctx, [client.id], userId);
  const message = await getMessage(ctx.db, messageRowId);
  return { message: message!, replyTo };
}
