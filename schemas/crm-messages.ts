/**
 * Messages exchanged with a client (issue 16): emails both ways now, SMS both ways beside them,
 * in one `crm_messages` table (docs/crm-api.md, "Email"). Shapes and limits shared by the
 * server's routes and the compose dialogs.
 */
import type { MESSAGE_CHANNELS } from "./crm-templates";

export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const MESSAGE_DIRECTIONS = ["out", "in"] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

/**
 * Where a message stands. Outgoing: `queued` (waiting for its transport), `stored` (kept in the
 * mail outbox: no SMTP server is configured), `sent`, `delivered` (a provider said so: SMS),
 * `undelivered` / `failed`. Incoming: `received`.
 */
export const MESSAGE_STATUSES = [
  "queued",
  "stored",
  "sent",
  "delivered",
  "undelivered",
  "failed",
  "received",
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** An email's subject, as the template resource allows. */
export const EMAIL_SUBJECT_MAX = 200;
/** An email's HTML body (the rich-text editor's output). */
export const EMAIL_BODY_MAX = 100_000;
/** Cc and Bcc addresses, each. */
export const EMAIL_COPIES_MAX = 20;
/** Files attached to one email, and their total size (below the 25 MB most providers take, once encoded). */
export const EMAIL_ATTACHMENTS_MAX = 10;
export const EMAIL_ATTACHMENTS_MAX_BYTES = 15 * 1024 * 1024;

/** A file attached to a message: an asset of the asset manager, or a file that came with a reply. */
export interface MessageAttachment {
  name: string;
  contentType: string;
  size: number;
  /** The asset it was taken from (outgoing). */
  assetId?: string;
}

/** One message as `GET /crm/messages` answers it. */
export interface CrmMessage {
  id: string;
  channel: MessageChannel;
  direction: MessageDirection;
  client_id: string;
  /** The email thread (a reply lands in the thread it answers); null for SMS. */
  thread_id: string | null;
  subject: string | null;
  /** Email: sanitised HTML. SMS: the text. */
  body: string;
  /** The body as plain text. */
  body_text: string | null;
  from: string;
  to: string;
  cc: string[];
  bcc: string[];
  status: MessageStatus;
  error: string | null;
  template_id: string | null;
  /** Who sent it (outgoing); null for what a client sent. */
  actor_id: string | null;
  attachments: MessageAttachment[];
  /** Outgoing email: fetches of its tracking pixel (a click counts one when none was), and the first. */
  opens: number;
  opened_at: string | null;
  /** Outgoing email: follows of its signed links, and the first. */
  clicks: number;
  clicked_at: string | null;
  created_at: string;
}

/**
 * An outgoing email's opens and clicks in words, or null before the first.
 *
 * @example
 * engagementText({ opens: 3, clicks: 1 }); // "Opened 3 times, 1 click"
 */
export function engagementText(m: Pick<CrmMessage, "opens" | "clicks">): string | null {
  if (!m.opens && !m.clicks) return null;
  const opened = m.opens === 1 ? "Opened once" : `Opened ${m.opens} times`;
  return m.clicks ? `${opened}, ${m.clicks === 1 ? "1 click" : `${m.clicks} clicks`}` : opened;
}

/** `POST /crm/messages/email`. Without a template, subject and body are required. */
export interface SendEmailRequest {
  clientId: string;
  subject?: string;
  /** HTML from the rich-text editor; merge fields are filled per client. */
  body?: string;
  /** The template it started from; its subject and body stand in for missing ones. */
  templateId?: string | null;
  /** Asset ids of the asset manager, attached as files. */
  assetIds?: string[];
  cc?: string[];
  bcc?: string[];
  /** Answer inside this thread (same reply address, threaded by the client's mail program). */
  threadId?: string | null;
}

/** `POST /crm/messages/email` answers the stored message and the address replies come back to. */
export interface SendEmailResponse {
  message: CrmMessage;
  replyTo: string;
}

/** `POST /crm/messages/email/preview`: the subject and body as the client would get them. */
export interface EmailPreview {
  subject: string;
  html: string;
  text: string;
}
