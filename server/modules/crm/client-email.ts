/**
 * The core of every CRM email (issue 16), in a caller's transaction: the conversation (new, or
 * the one continued), the mail queued to the mailer with the conversation's reply address
 * (`reply+<token>@CRM_INBOUND_DOMAIN`), the `crm_messages` row and the `email_out` timeline
 * entry. The email route (email.service.ts: checks, rendering, files, its own transaction) and a
 * sequence's email step (the step's transaction) both send through it, so every CRM mail has a
 * conversation, and a reply to any of them finds its client. It is also the one place that makes
 * a CRM mail's opens and clicks count (server/mail/tracking.ts): the mail's HTML part gets the
 * signed pixel and links, the stored message keeps the HTML as written.
 */
import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { textToHtml } from "../../mail/html-text";
import { mailFromAddress, type OutboxAttachment } from "../../mail/mailer";
import { instrumentHtml } from "../../mail/tracking";
import { newMessageId, newThreadToken, replyAddress } from "./email-threads";
import { touchThread } from "./messages";
import { addTimeline, type Db } from "./timeline";

/** How much of a mail's text its timeline entry shows. */
const TIMELINE_BODY_MAX = 2000;

/** The domain of our Message-IDs: the reply domain, else MAIL_FROM's. */
function messageIdDomain(ctx: AppContext): string {
  return (
    ctx.config.crmInbound.domain ?? mailFromAddress(ctx.config.mailFrom).split("@")[1] ?? "atelier.invalid"
  );
}

/** Who a CRM email is from: its `From:` name, and where replies go without a reply domain. */
export interface EmailSender {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
}

/** The user a message is sent as, or null when there is none (deleted since). */
export async function messageSender(db: Db, userId: string | null): Promise<EmailSender | null> {
  if (!userId) return null;
  const sender = await db
    .selectFrom("users")
    .select(["id", "first_name", "last_name", "email"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return sender ?? null;
}

/** An email to a client, ready to go: checked, merge fields filled. */
export interface ClientEmail {
  client: { id: string; email: string };
  /** Null for none (a sequence whose users are gone): MAIL_FROM's name, no Reply-To without a reply domain. */
  sender: EmailSender | null;
  subject: string;
  text: string;
  /** The HTML part; without it, the text as HTML (textToHtml) is, and the message keeps that. */
  html?: string;
  /** The conversation it continues; without it, a new one starts. */
  thread?: { id: string; token: string; inReplyTo: string | null } | null;
  cc?: readonly string[];
  bcc?: readonly string[];
  attachments?: ReadonlyArray<OutboxAttachment & { assetId: string }>;
  templateId?: string | null;
  /** Added to the timeline entry's data (a sequence's name and step). */
  timelineData?: Record<string, unknown>;
  /**
   * For a writer that may run twice for one cause (a sequence step: `sequence:<run>:<step>`):
   * the timeline entry's dedupe key, and a guard: while an entry holds it, nothing is sent again.
   */
  dedupeKey?: string;
}

export interface QueuedEmail {
  /** The `crm_messages` row. */
  id: string;
  threadId: string;
  /** The Reply-To the mail carries (the conversation's address, else the sender's). */
  replyTo: string | null;
}

/**
 * The core of every CRM email, in the caller's transaction (`trx`): the conversation (new, or the
 * one continued), the mail queued to the mailer with the conversation's reply address, the
 * `crm_messages` row and the `email_out` timeline entry. All of it commits, or none: a reply to
 * the address always finds its conversation and client. Answers null when `dedupeKey` had been
 * used (sent before). The caller wakes the mailer and tells open pages after its commit.
 *
 * @example
 * const queued = await queueClientEmail(ctx, trx, { client, sender, subject, text, dedupeKey });
 */
export async function queueClientEmail(
  ctx: AppContext,
  trx: Transaction<Database>,
  email: ClientEmail,
): Promise<QueuedEmail | null> {
  if (email.dedupeKey) {
    const done = await trx
      .selectFrom("crm_timeline")
      .select("id")
      .where("dedupe_key", "=", email.dedupeKey)
      .executeTakeFirst();
    if (done) return null;
  }
  const { client, sender, thread } = email;
  const domain = ctx.config.crmInbound.domain;
  const token = thread?.token ?? newThreadToken();
  // Without a reply domain nothing comes back to the CRM: replies go to the sender instead.
  const replyTo = domain ? replyAddress(token, domain) : (sender?.email ?? null);
  const messageId = newMessageId(messageIdDomain(ctx));
  const senderName = sender ? `${sender.first_name} ${sender.last_name}`.trim() : "";
  const cc = [...(email.cc ?? [])];
  const bcc = [...(email.bcc ?? [])];
  const attachments = email.attachments ?? [];
  const fileList = attachments.map((a) => ({
    name: a.filename,
    contentType: a.contentType,
    size: a.size,
    assetId: a.assetId,
  }));

  const threadId =
    thread?.id ??
    (
      await trx
        .insertInto("crm_email_threads")
        .values({
          token,
          client_id: client.id,
          subject: email.subject,
          message_id: messageId,
          created_by: sender?.id ?? null,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  if (thread) await touchThread(trx, thread.id);
  // The message's id is chosen here: the mail's pixel and links are signed with it.
  const id = randomUUID();
  const html = email.html ?? textToHtml(email.text);
  const tracked = instrumentHtml(html, { baseUrl: ctx.config.publicUrl, signer: ctx.tokens, messageId: id });
  const [outboxId] = await ctx.mailer.queue(
    [
      {
        to: client.email,
        cc,
        bcc,
        replyTo: replyTo ?? undefined,
        subject: email.subject,
        text: email.text,
        html: tracked,
        fromName: senderName || undefined,
        messageId,
        inReplyTo: thread?.inReplyTo ?? undefined,
        attachments: attachments.map(({ assetId: _, ...file }) => file),
      },
    ],
    trx,
  );
  const message = await trx
    .insertInto("crm_messages")
    .values({
      id,
      channel: "email",
      direction: "out",
      client_id: client.id,
      thread_id: threadId,
      subject: email.subject,
      body: html,
      body_text: email.text,
      from_address: mailFromAddress(ctx.config.mailFrom),
      to_address: client.email,
      cc: JSON.stringify(cc),
      bcc: JSON.stringify(bcc),
      status: ctx.config.smtpUrl ? "queued" : "stored",
      message_id: messageId,
      outbox_id: outboxId,
      template_id: email.templateId ?? null,
      actor_id: sender?.id ?? null,
      meta: JSON.stringify({ attachments: fileList, replyTo, fromName: senderName }),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await addTimeline(trx, [
    {
      clientId: client.id,
      kind: "email_out",
      title: email.subject,
      body:
        email.text.length > TIMELINE_BODY_MAX
          ? `${email.text.slice(0, TIMELINE_BODY_MAX - 3)}...`
          : email.text,
      data: {
        from: senderName || sender?.email || mailFromAddress(ctx.config.mailFrom),
        to: client.email,
        ...(cc.length ? { cc: cc.join(", ") } : {}),
        subject: email.subject,
        threadId,
        ...(fileList.length ? { attachments: fileList.map((f) => f.name).join(", ") } : {}),
        ...email.timelineData,
      },
      refId: message.id,
      actorId: sender?.id ?? null,
      dedupeKey: email.dedupeKey ?? `email_out:${message.id}`,
    },
  ]);
  return { id: message.id, threadId, replyTo };
}
