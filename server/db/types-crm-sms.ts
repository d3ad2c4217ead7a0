/**
 * Tables of CRM SMS (issue 16): every SMS exchanged with a client, both ways, which is also the
 * SMS outbox and send queue (server/sms). Part of the one Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";
import type { SmsStatus } from "../../schemas/sms";
import type { SmsEncoding } from "../../schemas/sms-segments";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb written as JSON text (cast in SQL) and read back parsed. */
type Json<T> = ColumnType<T, string | undefined, string>;

/** What an SMS keeps besides its columns. */
export interface SmsMeta {
  segments?: number;
  encoding?: SmsEncoding;
  /** The provider that took (or was to take) it: `outbox`, `twilio`. */
  provider?: string;
  /** The provider's error code (Twilio's 21211, 30003…). */
  errorCode?: string | null;
  sentAt?: string;
  deliveredAt?: string;
  /** Inbound: the keyword it was read as. */
  keyword?: "opt_out" | "opt_in";
}

export interface CrmSmsMessagesTable {
  id: Generated<string>;
  direction: "out" | "in";
  client_id: string;
  body: string;
  /** Outgoing: our sender number or messaging service ("" while only stored); incoming: the client's number. */
  from_address: string;
  to_address: string;
  status: SmsStatus;
  error: string | null;
  /** The provider's id of the message (Twilio's sid). */
  message_id: string | null;
  template_id: string | null;
  actor_id: string | null;
  attempts: Generated<number>;
  meta: Json<SmsMeta>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CrmSmsTables {
  crm_sms_messages: CrmSmsMessagesTable;
}
