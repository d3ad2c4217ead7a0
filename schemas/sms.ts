/**
 * The SMS vocabulary shared by the server and the SPA (issue 16): an outbound SMS's statuses,
 * the longest text we send, the keywords that opt a number out and back in, and the outbox's
 * answer shape.
 */
import { statusLabel } from "./status-labels";

/**
 * Where an SMS stands (the words of the CRM's messages, schemas/crm-messages.ts). Outgoing:
 * `stored` (kept in the SMS outbox: no provider is configured), `queued` (waiting to be handed to
 * the provider, or to be tried again), `sent` (the provider took it), `delivered` / `undelivered`
 * (the carrier's verdict, from the provider's status callback), `failed` (the provider refused it,
 * or every attempt failed). Incoming: `received`.
 */
export const SMS_STATUSES = [
  "stored",
  "queued",
  "sent",
  "delivered",
  "undelivered",
  "failed",
  "received",
] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

/** The statuses in words: the one map of schemas/status-labels.ts. */
export const SMS_STATUS_LABELS: Readonly<Record<SmsStatus, string>> = Object.fromEntries(
  SMS_STATUSES.map((s) => [s, statusLabel(s)]),
) as Record<SmsStatus, string>;

/** Statuses a later report may not undo (status callbacks can arrive out of order). */
export const FINAL_SMS_STATUSES: readonly SmsStatus[] = ["delivered", "undelivered", "failed"];

/** Longest SMS text accepted (Twilio's limit: 1,600 characters, ten parts or so). */
export const SMS_MAX_LENGTH = 1600;

/** Whole-message keywords (any case) that opt the sender out of SMS, as carriers and Twilio read them. */
export const SMS_OPT_OUT_KEYWORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"] as const;
/** Whole-message keywords that opt the sender back in. */
export const SMS_OPT_IN_KEYWORDS = ["START", "YES", "UNSTOP"] as const;

/**
 * What an inbound text asks for: `opt_out`, `opt_in`, or null for an ordinary message. Only a
 * message that is the keyword alone counts ("stop", " STOP. "), never a sentence that contains
 * it ("please don't stop").
 */
export function smsKeyword(body: string): "opt_out" | "opt_in" | null {
  const word = body
    .trim()
    .replace(/[.!]+$/, "")
    .toUpperCase();
  if ((SMS_OPT_OUT_KEYWORDS as readonly string[]).includes(word)) return "opt_out";
  if ((SMS_OPT_IN_KEYWORDS as readonly string[]).includes(word)) return "opt_in";
  return null;
}

/** What decides whether a client may be texted. */
export interface SmsRecipient {
  name: string;
  phone: string | null;
  consent_sms: boolean;
  sms_opted_out_at: Date | string | null;
}

/**
 * Why this client cannot be texted now, in words, or null when they can: no phone, opted out
 * (texted STOP), or no consent. The server refuses with it; the SMS dialog shows it first.
 */
export function smsRefusal(client: SmsRecipient): string | null {
  if (!client.phone) return `${client.name} has no phone number: add one to their record first`;
  if (client.sms_opted_out_at)
    return `${client.name} opted out of SMS (texted STOP); they can opt back in by texting START`;
  if (!client.consent_sms)
    return `${client.name} has not agreed to receive SMS ("Agrees to SMS" is off on their record)`;
  return null;
}

/** One SMS, as `POST /crm/messages/sms` and `GET /crm/sms/outbox` answer it. */
export interface SmsMessage {
  id: string;
  direction: "out" | "in";
  clientId: string;
  clientName: string | null;
  to: string;
  /** Our sender (number or messaging service; "" while only stored), or the client's number. */
  from: string;
  body: string;
  status: SmsStatus;
  /** Why it failed or was not delivered, in words. */
  error: string | null;
  /** The provider's error code (Twilio's 21211, 30003…). */
  errorCode: string | null;
  segments: number;
  encoding: "GSM-7" | "UCS-2";
  /** The provider that took it or was to take it: `outbox`, `twilio`. */
  provider: string | null;
  /** The provider's id of the message (Twilio's sid). */
  providerId: string | null;
  attempts: number;
  templateId: string | null;
  actorId: string | null;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
}

/** `GET /crm/sms/settings`: whether SMS leave, so the dialog can say where they go. */
export interface SmsSettings {
  provider: string;
  /** false: SMS are kept in the SMS outbox. */
  sends: boolean;
  /** The sender number or messaging service, when one is configured. */
  from: string | null;
}
