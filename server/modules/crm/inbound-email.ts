/**
 * A reply to a CRM email (issue 16), as the inbound listener hands it over: matched to its
 * thread by the reply address it was sent to, stored as an incoming message, put on the
 * client's timeline, its sender told, and the client's sequences told they answered — all in one
 * transaction, once per Message-ID (a mail delivered twice, or to two instances, is one reply).
 */
import { createHash } from "node:crypto";
import { type ParsedMail, simpleParser } from "mailparser";
import type { MessageAttachment } from "../../../schemas/crm-messages";
import type { AppContext } from "../../context";
import { createInboundEvents, jsonAnswer } from "../../http/inbound-events";
import { sanitiseHtml } from "../cms/entry-values";
import { onClientReplied } from "./client-replied";
import { threadTokenOf } from "./email-threads";
import { touchThread } from "./messages";
import { addTimeline, type Db, timelineChanged } from "./timeline";

const TIMELINE_BODY_MAX = 2000;
/** A header kept in a column: longer ones (never seen in real mail) are cut. */
const HEADER_MAX = 900;

export interface InboundMail {
  /** The envelope's recipients (RCPT TO), the reply addresses among them. */
  recipients: readonly string[];
  /** The envelope's sender (MAIL FROM); empty for a bounce. */
  envelopeFrom: string;
  raw: Buffer;
}

export interface ReceivedReply {
  messageId: string;
  /** The messages stored (none when it had been received before). */
  stored: Array<{ id: string; clientId: string; threadId: string }>;
  /** Received before (within the inbound events' week): nothing was done this time. */
  replayed: boolean;
}

/**
 * The words of a reply without the quoted mail under it: the text up to the first "On … wrote:",
 * "-----Original Message-----", Outlook's "From:" block or a run of `>` lines. The whole text
 * when nothing is left (a reply written under the quote).
 */
export function replyTextOf(text: string): string {
  const markers = [
    /^On\b[^\n]*(?:\n[^\n]*)?\bwrote:\s*$/m,
    /^-{2,}\s*Original Message\s*-{2,}/im,
    /^_{10,}\s*$/m,
    /^From:\s.+\n(?:Sent|Date):\s/m,
    /^>/m,
  ];
  const cut = Math.min(...markers.map((re) => re.exec(text)?.index ?? text.length));
  const reply = text.slice(0, cut).trim();
  return reply || text.trim();
}

/**
 * True for a mail no person wrote: an out-of-office, a bounce, a list's digest. Stored all the
 * same, but it does not count as the client answering (sequences keep going, nobody is told).
 */
export function isAutomatic(mail: ParsedMail, envelopeFrom: string): boolean {
  const header = (name: string) => {
    const value = mail.headers.get(name);
    return typeof value === "string" ? value.toLowerCase() : value ? String(value).toLowerCase() : "";
  };
  if (!envelopeFrom) return true;
  const autoSubmitted = header("auto-submitted");
  if (autoSubmitted && autoSubmitted !== "no") return true;
  if (["bulk", "junk", "list", "auto_reply"].includes(header("precedence"))) return true;
  return mail.headers.has("x-autoreply") || mail.headers.has("x-autorespond");
}

const noNul = (text: string) => text.replaceAll("\u0000", "");

/**
 * The parsed mail with no NUL character in what is stored of it (PostgreSQL text cannot hold
 * one; a raw byte or an encoded word `=?utf-8?q?a=00b?=` makes one): otherwise the store fails,
 * the sender is told to try again later, and the reply is never stored however often it does.
 */
function withoutNul(mail: ParsedMail): ParsedMail {
  const clean = <T>(value: T): T => (typeof value === "string" ? (noNul(value) as T) : value);
  const addresses = (field: ParsedMail["from"]): ParsedMail["from"] =>
    field && {
      ...field,
      value: field.value.map((a) => ({ ...a, address: clean(a.address), name: noNul(a.name ?? "") })),
    };
  return {
    ...mail,
    messageId: clean(mail.messageId),
    subject: clean(mail.subject),
    text: clean(mail.text),
    html: clean(mail.html),
    textAsHtml: clean(mail.textAsHtml),
    from: addresses(mail.from),
    attachments: mail.attachments.map((a) => ({
      ...a,
      filename: clean(a.filename),
      contentType: noNul(a.contentType),
    })),
  };
}

/** The first address of a parsed address header. */
function firstAddress(field: ParsedMail["from"]): { address: string; name: string } | null {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  const first = list[0]?.value[0];
  return first?.address ? { address: first.address.toLowerCase(), name: first.name ?? "" } : null;
}

/**
 * notify: crm.reply — the single call site of the notification centre for email replies: the
 * conversation's sender learns that the client answered (in the reply's transaction, once per
 * reply).
 */
async function notifyReply(
  ctx: AppContext,
  trx: Db,
  notice: {
    userId: string;
    clientId: string;
    clientName: string;
    threadId: string;
    messageId: string;
    subject: string;
    text: string;
  },
): Promise<void> {
  await ctx.notifications.notify(trx, {
    userIds: [notice.userId],
    kind: "crm.reply",
    title: `${notice.clientName} replied: ${notice.subject}`,
    body: notice.text,
    link: `/crm/clients/show/${notice.clientId}`,
    data: { clientId: notice.clientId, threadId: notice.threadId, messageId: notice.messageId },
    dedupeKey: `crm.reply:${notice.messageId}`,
  });
}

/** The sender to tell: who last wrote in the thread, else who started it. */
async function threadSender(trx: Db, threadId: string, startedBy: string | null): Promise<string | null> {
  const last = await trx
    .selectFrom("crm_messages")
    .select("actor_id")
    .where("thread_id", "=", threadId)
    .where("direction", "=", "out")
    .where("actor_id", "is not", null)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return last?.actor_id ?? startedBy;
}

/** Stores a reply for each thread it was addressed to (see the file's comment). */
export async function receiveReply(ctx: AppContext, mail: InboundMail): Promise<ReceivedReply> {
  const domain = ctx.config.crmInbound.domain;
  const tokens = [
    ...new Set(
      mail.recipients.map((r) => (domain ? threadTokenOf(r, domain) : null)).filter((t) => t !== null),
    ),
  ];
  const parsed = withoutNul(await simpleParser(mail.raw, { skipImageLinks: true }));
  // Without a Message-ID (or with an empty one, `<>`: a broken mailer sends it on every mail),
  // the content stands in for it: the same mail twice is still one reply, two mails are two.
  const given = parsed.messageId?.trim() ?? "";
  const messageId = (
    given.replace(/^<\s*|\s*>$/g, "")
      ? given
      : `<sha256-${createHash("sha256").update(mail.raw).digest("hex")}@inbound.invalid>`
  ).slice(0, HEADER_MAX);
  if (!tokens.length) return { messageId, stored: [], replayed: false };

  // One event per Message-ID for a week (server/http/inbound-events.ts): a mail delivered again
  // (a sender's retry, a second MX) is accepted and does nothing, even if its messages were
  // deleted since.
  const outcome = await createInboundEvents(ctx.db).once("mail", messageId, async () =>
    jsonAnswer(250, await storeReply(ctx, mail, { messageId, tokens, parsed })),
  );
  if (outcome.answer.status !== 250) throw new Error("The same mail is still being stored: try again later");
  if (outcome.replayed) return { messageId, stored: [], replayed: true };
  const stored = JSON.parse(outcome.answer.body ?? "[]") as ReceivedReply["stored"];
  timelineChanged(
    ctx,
    stored.map((s) => s.clientId),
    null,
  );
  return { messageId, stored, replayed: false };
}

/** Stores the reply on each thread it was addressed to, in one transaction. */
async function storeReply(
  ctx: AppContext,
  mail: InboundMail,
  { messageId, tokens, parsed }: { messageId: string; tokens: string[]; parsed: ParsedMail },
): Promise<ReceivedReply["stored"]> {
  const domain = ctx.config.crmInbound.domain;
  const from = firstAddress(parsed.from);
  const subject = (parsed.subject ?? "").slice(0, HEADER_MAX);
  const text = (parsed.text ?? "").trim();
  const html = sanitiseHtml(parsed.html || parsed.textAsHtml || "");
  const replyText = replyTextOf(text);
  const automatic = isAutomatic(parsed, mail.envelopeFrom);
  const attachments: MessageAttachment[] = parsed.attachments.map((a) => ({
    name: a.filename ?? "attachment",
    contentType: a.contentType,
    size: a.size,
  }));

  return ctx.db.transaction().execute(async (trx) => {
    const threads = await trx
      .selectFrom("crm_email_threads as t")
      .innerJoin("clients as c", "c.id", "t.client_id")
      .select(["t.id", "t.token", "t.client_id", "t.created_by", "c.name as client_name"])
      .where("t.token", "in", tokens)
      .orderBy("t.created_at")
      .execute();
    const out: ReceivedReply["stored"] = [];
    for (const thread of threads) {
      const row = await trx
        .insertInto("crm_messages")
        .values({
          channel: "email",
          direction: "in",
          client_id: thread.client_id,
          thread_id: thread.id,
          subject,
          body: html,
          body_text: text,
          from_address: from?.address ?? (mail.envelopeFrom || "unknown"),
          to_address: mail.recipients.find((r) => domain && threadTokenOf(r, domain) === thread.token) ?? "",
          status: "received",
          message_id: messageId,
          meta: JSON.stringify({ attachments, fromName: from?.name ?? "", automatic }),
        })
        // Unique per channel: a mail seen before (or to two of the client's threads) is stored once.
        .onConflict((oc) => oc.columns(["channel", "message_id"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!row) continue;
      await touchThread(trx, thread.id);
      // Before the timeline entry writes to the client's row: see onClientReplied on lock order.
      if (!automatic) await onClientReplied(ctx, trx, thread.client_id, "email");
      const title = subject || "(no subject)";
      await addTimeline(trx, [
        {
          clientId: thread.client_id,
          kind: "email_in",
          title,
          body:
            replyText.length > TIMELINE_BODY_MAX
              ? `${replyText.slice(0, TIMELINE_BODY_MAX - 3)}...`
              : replyText,
          data: {
            from: from ? (from.name ? `${from.name} <${from.address}>` : from.address) : mail.envelopeFrom,
            subject: title,
            threadId: thread.id,
            ...(attachments.length ? { attachments: attachments.map((a) => a.name).join(", ") } : {}),
            ...(automatic ? { automatic: true } : {}),
          },
          refId: row.id,
          dedupeKey: `email_in:${messageId}`,
        },
      ]);
      if (!automatic) {
        const sender = await threadSender(trx, thread.id, thread.created_by);
        if (sender)
          await notifyReply(ctx, trx, {
            userId: sender,
            clientId: thread.client_id,
            clientName: thread.client_name,
            threadId: thread.id,
            messageId: row.id,
            subject: title,
            text: replyText,
          });
      }
      out.push({ id: row.id, clientId: thread.client_id, threadId: thread.id });
    }
    return out;
  });
}
