/**
 * SMS with clients (issue 16) are rows of `crm_messages` with `channel = 'sms'`
 * (types-crm-email.ts); what an SMS keeps in its `meta`.
 */
import type { SmsEncoding } from "../../schemas/sms-segments";

export interface SmsMeta {
  segments?: number;
  encoding?: SmsEncoding;
  /** The provider that took (or was to take) it: `outbox`, `twilio`. */
  provider?: string;
  /** Times the send job handed it to the provider. */
  attempts?: number;
  /** The provider's error code (Twilio's 21211, 30003…). */
  errorCode?: string | null;
  sentAt?: string;
  deliveredAt?: string;
  /** Inbound: the keyword it was read as. */
  keyword?: "opt_out" | "opt_in";
}
