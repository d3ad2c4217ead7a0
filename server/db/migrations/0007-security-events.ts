/**
 * Security hardening (issue 10): the security event log, and reset links kept as secrets in
 * the mail outbox.
 *
 * security_events has no foreign keys on purpose: an audit log outlives the accounts it
 * mentions (a deleted user's sign-ins must stay readable), and a missing user must never
 * make recording fail.
 *
 * mail_outbox.secret_link is the one secret link a mail carries (a reset link), with the hash
 * of its token and its expiry: once the link is used the row is scrubbed (the link replaced in
 * the bodies, these columns cleared); once it expires, reads scrub it too.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table security_events (
      id uuid primary key default gen_random_uuid(),
      -- clock_timestamp: events recorded in one transaction keep their order. Milliseconds,
      -- as the API answers them, so a time read from the list filters back exactly.
      created_at timestamptz(3) not null default clock_timestamp(),
      type text not null,
      user_id uuid,
      actor_id uuid,
      email text,
      ip text,
      user_agent text,
      details jsonb not null default '{}'
    );
    create index security_events_created_idx on security_events (created_at desc);
    create index security_events_type_created_idx on security_events (type, created_at desc);
    create index security_events_user_created_idx on security_events (user_id, created_at desc);
    create index security_events_email_idx on security_events (email);
    create index security_events_ip_idx on security_events (ip);

    alter table mail_outbox add column secret_link text;
    alter table mail_outbox add column secret_hash text;
    alter table mail_outbox add column secret_expires_at timestamptz;
    create index mail_outbox_secret_hash_idx on mail_outbox (secret_hash) where secret_hash is not null;

    -- Reset mails stored before this migration carry no secret columns: scrub their links now
    -- (a link in flight at upgrade time is lost; asking again sends a new one).
    update mail_outbox set
      text_body = regexp_replace(text_body, 'https?://\\S*/manage/resetpassword/\\S+', '[link used or expired]', 'g'),
      html_body = regexp_replace(html_body, 'https?://[^\\s"''<>]*/manage/resetpassword/[^\\s"''<>]+', '[link used or expired]', 'g')
    where text_body like '%/manage/resetpassword/%' or html_body like '%/manage/resetpassword/%';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table security_events;
    alter table mail_outbox drop column secret_link;
    alter table mail_outbox drop column secret_hash;
    alter table mail_outbox drop column secret_expires_at;
  `.execute(db);
}
