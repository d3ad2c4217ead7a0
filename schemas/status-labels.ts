/**
 * Where a message stands, in words for people: the one map of status labels that the mail
 * outbox, the SMS outbox, a client's emails and the client's timeline all show (issue 27 found
 * "stored" in lower case in two of them). Mails (`mail_outbox.status`), CRM messages
 * (schemas/crm-messages.ts) and SMS (schemas/sms.ts) share these words.
 */

export const STATUS_LABELS: Readonly<Record<string, string>> = {
  // Kept where an admin reads it: no SMTP server or SMS provider is configured.
  stored: "Stored in the outbox",
  // Waiting for its transport (a mail's `pending`, a message's `queued`).
  pending: "Queued",
  queued: "Queued",
  sent: "Sent",
  delivered: "Delivered",
  undelivered: "Not delivered",
  failed: "Failed",
  received: "Received",
};

/**
 * A status as people read it: its label, or, for one this map does not know yet, its own words
 * with a capital ("in_progress" → "In progress").
 *
 * @example
 * statusLabel("stored"); // "Stored in the outbox"
 * statusLabel("in_progress"); // "In progress"
 */
export function statusLabel(status: string): string {
  const label = Object.hasOwn(STATUS_LABELS, status) ? STATUS_LABELS[status] : undefined;
  if (label) return label;
  const words = status.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
