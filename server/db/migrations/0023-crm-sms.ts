/**
 * SMS with clients (issue 16): `crm_sms_messages` holds every SMS exchanged with a client, both
 * ways, and is also the SMS outbox and send queue (server/sms): an outgoing row is `stored`
 * (no provider configured), or `queued` until the send job hands it to the provider.
 * `message_id` is the provider's id (Twilio's `SM…` sid): a status callback finds its message
 * by it, and an inbound SMS delivered twice is stored once.
 *
 * The columns follow the CRM's `crm_messages` (email) so the two can become one table with
 * `channel = 'sms'`; `attempts` and the SMS details in `meta` (segments, encoding, the
 * provider's error code) are SMS-only.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table crm_sms_messages (
      id uuid primary key default gen_random_uuid(),
      direction text not null,
      client_id uuid not null references clients (id) on delete cascade,
      body text not null,
      from_address text not null,
      to_address text not null,
      status text not null,
      error text,
      message_id text,
      template_id uuid references crm_templates (id) on delete set null,
      actor_id uuid references users (id) on delete set null,
      attempts integer not null default 0,
      meta jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint crm_sms_messages_direction_check check (direction in ('out', 'in')),
      constraint crm_sms_messages_status_check check (status in ('queued', 'stored', 'sent', 'delivered', 'undelivered', 'failed', 'received')),
      constraint crm_sms_messages_body_check check (char_length(body) <= 1600),
      constraint crm_sms_messages_message_id_key unique (message_id)
    );
    create index crm_sms_messages_client_idx on crm_sms_messages (client_id, created_at desc, id desc);
    create index crm_sms_messages_outbox_idx on crm_sms_messages (created_at desc, id desc) where direction = 'out';
    create index crm_sms_messages_to_idx on crm_sms_messages (to_address, created_at desc) where direction = 'out';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table crm_sms_messages;
  `.execute(db);
}
