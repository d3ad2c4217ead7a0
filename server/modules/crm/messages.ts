/**
 * Messages exchanged with a client (`crm_messages`), email and SMS alike: how a row reads in
 * answers, and a client's list. An outgoing email's status is its outbox row's (the mailer
 * moves it from queued to sent or failed), read at list time rather than copied.
 */
import { sql } from "kysely";
import type { CrmMessage, MessageStatus } from "../../../schemas/crm-messages";
import type { ListQuery } from "../../http/list-query";
import { listPage } from "../../http/list-query";
import type { Db } from "./timeline";

/** The outbox's words for where a mail stands, as a message's status. */
const OUTBOX_STATUS: Readonly<Record<string, MessageStatus>> = {
  stored: "stored",
  pending: "queued",
  sent: "sent",
  failed: "failed",
};

const parsed = <T>(value: unknown, fallback: T): T =>
  (typeof value === "string" ? JSON.parse(value) : (value ?? fallback)) as T;

/** A selection of messages with their outbox's status (`outbox_status`, `outbox_error`). */
export function messagesQuery(db: Db) {
  return db
    .selectFrom("crm_messages as m")
    .leftJoin("mail_outbox as o", "o.id", "m.outbox_id")
    .selectAll("m")
    .select(["o.status as outbox_status", "o.error as outbox_error"]);
}

type MessageRow = Awaited<ReturnType<ReturnType<typeof messagesQuery>["executeTakeFirstOrThrow"]>>;

/** A message as the API answers it. */
export function toMessage(r: MessageRow): CrmMessage {
  const meta = parsed<{ attachments?: CrmMessage["attachments"] }>(r.meta, {});
  return {
    id: r.id,
    channel: r.channel,
    direction: r.direction,
    client_id: r.client_id,
    thread_id: r.thread_id,
    subject: r.subject,
    body: r.body,
    body_text: r.body_text,
    from: r.from_address,
    to: r.to_address,
    cc: parsed(r.cc, []),
    bcc: parsed(r.bcc, []),
    status: (r.outbox_status && OUTBOX_STATUS[r.outbox_status]) || r.status,
    error: r.outbox_error ?? r.error,
    template_id: r.template_id,
    actor_id: r.actor_id,
    attachments: meta.attachments ?? [],
    opens: r.open_count,
    opened_at: r.opened_at ? new Date(r.opened_at).toISOString() : null,
    clicks: r.click_count,
    clicked_at: r.clicked_at ? new Date(r.clicked_at).toISOString() : null,
    created_at: new Date(r.created_at).toISOString(),
  };
}

/** One message, or undefined. */
export async function getMessage(db: Db, id: string): Promise<CrmMessage | undefined> {
  const row = await messagesQuery(db).where("m.id", "=", id).executeTakeFirst();
  return row && toMessage(row);
}

/** A page of a client's messages (list contract), newest first by default. */
export async function listMessages(
  db: Db,
  clientId: string,
  query: ListQuery,
): Promise<{ data: CrmMessage[]; total: number }> {
  const q = messagesQuery(db).where("m.client_id", "=", clientId);
  const { rows, total } = await listPage(db, q, query, {
    table: "m",
    defaultSort: "-created_at",
    sortFields: ["created_at"],
    filterFields: { channel: "string", direction: "string", thread_id: "uuid", created_at: "date" },
    search: ["subject", "body_text"],
  });
  return { data: rows.map(toMessage), total };
}

/** Marks an email thread active now (its list on the client's page is ordered by it). */
export async function touchThread(db: Db, threadId: string): Promise<void> {
  await db
    .updateTable("crm_email_threads")
    .set({ last_message_at: sql<Date>`now()` })
    .where("id", "=", threadId)
    .execute();
}
