/**
 * Tables of CRM email (issue 16): conversations started from a client's page and every message
 * exchanged with a client, email and SMS alike. Part of the one Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";
import type {
  MessageAttachment,
  MessageChannel,
  MessageDirection,
  MessageStatus,
} from "../../schemas/crm-messages";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb written as JSON text (cast in SQL) and read back parsed. */
type Json<T> = ColumnType<T, string | undefined, string>;

export interface CrmEmailThreadsTable {
  id: Generated<string>;
  /** The secret part of the thread's reply address: `reply+<token>@<domain>`. */
  token: string;
  client_id: string;
  subject: string;
  /** The Message-ID of the thread's first mail. */
  message_id: string;
  created_by: string | null;
  created_at: Timestamp;
  last_message_at: Timestamp;
}

/** What a message keeps besides its columns (by channel: attachments, headers, SMS segments…). */
export interface MessageMeta {
  attachments?: MessageAttachment[];
  /** Incoming email: the address it was sent to (the thread's reply address). */
  replyAddress?: string;
  /** Outgoing email: the address replies go to. */
  replyTo?: string;
  [key: string]: unknown;
}

export interface CrmMessagesTable {
  id: Generated<string>;
  channel: MessageChannel;
  direction: MessageDirection;
  client_id: string;
  thread_id: string | null;
  subject: string | null;
  body: string;
  body_text: string | null;
  from_address: string;
  to_address: string;
  cc: Json<string[]>;
  bcc: Json<string[]>;
  status: MessageStatus;
  error: string | null;
  message_id: string | null;
  outbox_id: string | null;
  template_id: string | null;
  actor_id: string | null;
  meta: Json<MessageMeta>;
  /** Outgoing email: its tracking pixel's first fetch, and how many fetches (migration 0036). */
  opened_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  open_count: Generated<number>;
  /** Outgoing email: the first of its signed links followed, and how many were. */
  clicked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  click_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CrmEmailTables {
  crm_email_threads: CrmEmailThreadsTable;
  crm_messages: CrmMessagesTable;
}
