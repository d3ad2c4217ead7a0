/**
 * Mail goes through the `mail_outbox` table, which is also the queue: with SMTP_URL set
 * a sender delivers pending rows (retrying, at-least-once); without it mails stay
 * 'stored' so admins can read them in the UI (a fresh install shows what would be sent).
 */

import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import { type Kysely, type Selectable, sql } from "kysely";
import nodemailer from "nodemailer";
import type { Database } from "../db";
import { type Inserts, insertRows } from "../db/insert-rows";
import type { MailOutboxTable, OutboxAttachment } from "../db/types";
import type { StorageDriver } from "../storage";
import { secretColumnsOf } from "./outbox-secrets";

export type { OutboxAttachment } from "../db/types";

export interface OutgoingMail {
  /** One address, or several (a form's Destination list). */
  to: string | string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * An iCalendar part (RFC 6047): a meeting invitation (`REQUEST`) or its cancellation
   * (`CANCEL`), sent as the message's text/calendar alternative, which mail apps show with
   * Accept and Decline.
   */
  calendar?: { method: "REQUEST" | "CANCEL"; ics: string };
  /** Display name of the sender; the address stays MAIL_FROM's (a CRM user's name). */
  fromName?: string;
  /** The Message-ID header (`<id@domain>`), for a mail whose replies are threaded by it. */
  messageId?: string;
  /** The Message-ID this mail answers (In-Reply-To and References). */
  inReplyTo?: string;
  /** Files in storage, streamed to the transport when the mail is sent (the key is ours). */
  attachments?: OutboxAttachment[];
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /**
   * Puts mails in the outbox inside the caller's transaction (`db`): they exist only if it
   * commits, and are sent after it (a form submission and its notification, stored together).
   * Answers the outbox ids, in the order of `mails`. With `together`, the insert is added to
   * it, to go with the transaction's other inserts in one statement (its caller sends it).
   */
  queue(mails: readonly OutgoingMail[], db: Kysely<Database>, together?: Inserts): Promise<string[]>;
  /** Sends what is pending now rather than at the next poll (after `queue`'s commit). */
  wake(): void;
  /** Delivers pending mails now; resolves with how many were handled. */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The address of a sender such as MAIL_FROM.
 *
 * @example
 * mailFromAddress("Atelier <no-reply@example.com>"); // "no-reply@example.com"
 */
export function mailFromAddress(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}

const MAX_ATTEMPTS = 5;

/** The outbox's columns a queued mail sets (insertRows). */
const OUTBOX_COLUMNS = {
  id: "uuid",
  to_address: "text",
  cc: "jsonb",
  bcc: "jsonb",
  reply_to: "text",
  subject: "text",
  text_body: "text",
  html_body: "text",
  calendar_method: "text",
  calendar_ics: "text",
  status: "text",
  message_id: "text",
  in_reply_to: "text",
  from_name: "text",
  attachments: "jsonb",
} as const;
const POLL_MS = 5000;

export function createMailer(
  db: Kysely<Database>,
  options: {
    smtpUrl: string | null;
    from: string;
    log: FastifyBaseLogger;
    poll?: boolean;
    /** Where attachments are read from; a mail with attachments fails without it. */
    storage?: StorageDriver;
  },
): Mailer {
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  async function deliverBatch(): Promise<number> {
    if (!transport) return 0;
    const claimed = await db
      .updateTable("mail_outbox")
      // Claims are timed by the database's clock, never an instance's: with several instances
      // whose clocks differ, a mail must not look unclaimed to one while another sends it.
      .set((eb) => ({
        locked_until: sql<Date>`now() + interval '60 seconds'`,
        attempts: eb("attempts", "+", 1),
      }))
      .where("id", "in", (eb) =>
        eb
          .selectFrom("mail_outbox")
          .select("id")
          .where("status", "=", "pending")
          .where((w) => w.or([w("locked_until", "is", null), w("locked_until", "<", sql<Date>`now()`)]))
          .orderBy("created_at")
          .limit(10)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .execute();
    for (const mail of claimed) {
      let files: OpenedAttachments;
      try {
        files = await openAttachments(mail);
      } catch (error) {
        // A file deleted from storage since the mail was queued will not come back: no retry.
        const message = error instanceof Error ? error.message : String(error);
        options.log.warn({ mailId: mail.id, err: message }, "mail not sent: an attachment is missing");
        await db
          .updateTable("mail_outbox")
          .set({ status: "failed", error: message, locked_until: null })
          .where("id", "=", mail.id)
          .execute();
        continue;
      }
      try {
        await transport.sendMail({
          from: mail.from_name ? { name: mail.from_name, address: fromAddress } : options.from,
          to: mail.to_address,
          cc: mail.cc?.length ? mail.cc : undefined,
          bcc: mail.bcc?.length ? mail.bcc : undefined,
          replyTo: mail.reply_to ?? undefined,
          subject: mail.subject,
          text: mail.text_body,
          html: mail.html_body ?? undefined,
          icalEvent: mail.calendar_ics
            ? {
                method: mail.calendar_method ?? "REQUEST",
                content: mail.calendar_ics,
                filename: "invite.ics",
              }
            : undefined,
          messageId: mail.message_id ?? undefined,
          inReplyTo: mail.in_reply_to ?? undefined,
          references: mail.in_reply_to ?? undefined,
          attachments: files.list.length ? files.list : undefined,
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        options.log.warn({ mailId: mail.id, err: message }, "mail delivery failed");
        await db
          .updateTable("mail_outbox")
          .set({
            status: mail.attempts >= MAX_ATTEMPTS ? "failed" : "pending",
            error: message,
            locked_until: sql<Date>`now() + make_interval(secs => ${2 ** mail.attempts}::double precision)`,
          })
          .where("id", "=", mail.id)
          .execute();
        continue;
      } finally {
        files.close();
      }
      // Sent: if this write fails (the database went away meanwhile), the claim expires and
      // the mail is sent again later: at-least-once, as documented above.
      await db
        .updateTable("mail_outbox")
        .set({ status: "sent", sent_at: sql<Date>`now()`, error: null, locked_until: null })
        .where("id", "=", mail.id)
        .execute();
    }
    return claimed.length;
  }

  /** MAIL_FROM's address, under a sender's own display name. */
  const fromAddress = mailFromAddress(options.from);

  interface OpenedAttachments {
    list: Array<{ filename: string; contentType: string; content: Readable }>;
    close(): void;
  }

  /** Streams of a mail's attachments; throws naming the first one storage no longer has. */
  async function openAttachments(mail: Selectable<MailOutboxTable>): Promise<OpenedAttachments> {
    const wanted = (typeof mail.attachments === "string" ? JSON.parse(mail.attachments) : mail.attachments) as
      | OutboxAttachment[]
      | null;
    const list: OpenedAttachments["list"] = [];
    const close = () => {
      for (const a of list) a.content.destroy();
    };
    for (const file of wanted ?? []) {
      const found = options.storage ? await options.storage.get(file.storageKey) : null;
      if (!found) {
        close();
        throw new Error(`The attachment ${file.filename} is no longer in storage`);
      }
      list.push({ filename: file.filename, contentType: file.contentType, content: found.body });
    }
    return { list, close };
  }

  function flush(): Promise<number> {
    running ??= deliverBatch().finally(() => {
      running = null;
    });
    return running;
  }

  /** Rounds failed in a row (the database is down): one error line per outage, not per poll. */
  let failedRounds = 0;
  function flushInBackground(): void {
    flush().then(
      () => {
        if (failedRounds) options.log.info({ failedRounds }, "outbox sender: running again");
        failedRounds = 0;
      },
      (err) => {
        if (failedRounds++ === 0) options.log.error({ err }, "outbox sender failed; retrying every poll");
        else options.log.debug({ err }, "outbox sender failed");
      },
    );
  }

  /** A mail's outbox row, its jsonb columns' values as they are (insertRows). */
  const outboxValues = (mail: OutgoingMail) => ({
    to_address: Array.isArray(mail.to) ? mail.to.join(", ") : mail.to,
    cc: mail.cc ?? [],
    bcc: mail.bcc ?? [],
    reply_to: mail.replyTo ?? null,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html ?? null,
    calendar_method: mail.calendar?.method ?? null,
    calendar_ics: mail.calendar?.ics ?? null,
    status: transport ? "pending" : "stored",
    message_id: mail.messageId ?? null,
    in_reply_to: mail.inReplyTo ?? null,
    from_name: mail.fromName ?? null,
    attachments: mail.attachments ?? [],
  });
  /** The same row with its jsonb columns as JSON text, for Kysely's insert. */
  const outboxRow = (mail: OutgoingMail) => {
    const row = outboxValues(mail);
    return {
      ...row,
      cc: JSON.stringify(row.cc),
      bcc: JSON.stringify(row.bcc),
      attachments: JSON.stringify(row.attachments),
    };
  };

  if (transport && options.poll !== false) {
    timer = setInterval(flushInBackground, POLL_MS);
    timer.unref();
  }

  return {
    async send(mail) {
      await db
        .insertInto("mail_outbox")
        .values({
          ...outboxRow(mail),
          // A set-password link is tracked so the stored copy is scrubbed once it is dead.
          ...(await secretColumnsOf(db, mail.text)),
        })
        .execute();
      if (transport) flushInBackground();
    },
    async queue(mails, trx, together) {
      if (!mails.length) return [];
      const ids = mails.map(() => randomUUID());
      const insert = insertRows(
        "mail_outbox",
        OUTBOX_COLUMNS,
        mails.map((mail, i) => ({ id: ids[i], ...outboxValues(mail) })),
      );
      if (together) together.add(insert);
      else await trx.executeQuery(insert);
      return ids;
    },
    wake() {
      if (transport) flushInBackground();
    },
    flush,
    async stop() {
      if (timer) clearInterval(timer);
      await running?.catch(() => {}); // its failure was logged by whoever started it
      transport?.close();
    },
  };
}
