/**
 * Email from the CRM, and replies coming back (issue 16):
 * - `crm_email_threads`: one per conversation started from a client's page. Its random `token`
 *   is the per-thread reply address (`reply+<token>@CRM_INBOUND_DOMAIN`), so a reply finds its
 *   thread, client and sender without trusting anything else in the mail;
 * - `crm_messages`: every message exchanged with a client, email and SMS alike (`channel`),
 *   both ways (`direction`). `message_id` is the email's Message-ID (or the SMS provider's id),
 *   unique per channel: a reply delivered twice is stored once. An outgoing email points at its
 *   `mail_outbox` row, which says whether it has been sent;
 * - `mail_outbox` learns the headers that thread a conversation (Message-ID, In-Reply-To), the
 *   sender's display name, and attachments (storage keys, read when the mail is sent).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table crm_email_threads (
      id uuid primary key default gen_random_uuid(),
      token text not null,
      client_id uuid not null references clients (id) on delete cascade,
      subject text not null,
      message_id text not null,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      last_message_at timestamptz not null default now(),
      constraint crm_email_threads_token_key unique (token),
      constraint crm_email_threads_token_check check (token ~ '^[a-z0-9]{16,64}$'),
      constraint crm_email_threads_subject_check check (char_length(subject) <= 300)
    );
    create index crm_email_threads_client_idx on crm_email_threads (client_id, last_message_at desc);

    create table crm_messages (
      id uuid primary key default gen_random_uuid(),
      channel text not null,
      direction text not null,
      client_id uuid not null references clients (id) on delete cascade,
      thread_id uuid references crm_email_threads (id) on delete set null,
      subject text,
      body text not null,
      body_text text,
      from_address text not null,
      to_address text not null,
      cc jsonb not null default '[]'::jsonb,
      bcc jsonb not null default '[]'::jsonb,
      status text not null,
      error text,
      message_id text,
      outbox_id uuid references mail_outbox (id) on delete set null,
      template_id uuid references crm_templates (id) on delete set null,
      actor_id uuid references users (id) on delete set null,
      meta jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint crm_messages_channel_check check (channel in ('email', 'sms')),
      constraint crm_messages_direction_check check (direction in ('out', 'in')),
      constraint crm_messages_status_check check (status in ('queued', 'stored', 'sent', 'delivered', 'undelivered', 'failed', 'received')),
      constraint crm_messages_subject_check check (char_length(subject) <= 1000),
      constraint crm_messages_message_id_key unique (channel, message_id)
    );
    create index crm_messages_client_idx on crm_messages (client_id, created_at desc, id desc);
    create index crm_messages_thread_idx on crm_messages (thread_id, created_at) where thread_id is not null;
    create index crm_messages_outbox_idx on crm_messages (outbox_id) where outbox_id is not null;

    alter table mail_outbox
      add column message_id text,
      add column in_reply_to text,
      add column from_name text,
      add column attachments jsonb not null default '[]'::jsonb;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table mail_outbox drop column message_id, drop column in_reply_to, drop column from_name, drop column attachments;
    drop table crm_messages;
    drop table crm_email_threads;
  `.execute(db);
}
