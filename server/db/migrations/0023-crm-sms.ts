/**
 * SMS with clients (issue 16). Every SMS, both ways, is a row of `crm_messages` (migration 0022)
 * with `channel = 'sms'`, and those rows are also the SMS outbox and the send queue
 * (server/sms): an outgoing one is `stored` (no provider configured), or `queued` until the send
 * job hands it to the provider. `message_id` is the provider's id (Twilio's `SM…` sid), unique
 * per channel: a status callback finds its SMS by it, and an inbound SMS delivered twice is
 * stored once. The SMS details live in `meta` (segments, encoding, provider, attempts, the
 * provider's error code, when it was sent and delivered).
 *
 * Added here: the indexes the SMS outbox (outgoing SMS, newest first) and the inbound
 * matching (the last SMS sent to a number) read by.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index crm_messages_sms_outbox_idx on crm_messages (created_at desc, id desc)
      where channel = 'sms' and direction = 'out';
    create index crm_messages_sms_to_idx on crm_messages (to_address, created_at desc)
      where channel = 'sms' and direction = 'out';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index crm_messages_sms_to_idx;
    drop index crm_messages_sms_outbox_idx;
  `.execute(db);
}
