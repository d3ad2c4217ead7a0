/** Platform tables: modules, users and grants, devices, sessions, tokens, outbox, rate limits. */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table modules (
      module_id integer primary key,
      key text not null unique,
      name text not null,
      description text not null default '',
      icon text not null default ''
    );

    create table users (
      id uuid primary key default gen_random_uuid(),
      email text not null,
      first_name text not null,
      last_name text not null,
      password_hash text not null,
      role smallint not null check (role in (2, 3)),
      plan_type text not null default 'standard',
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users(id) on delete set null,
      updated_by uuid references users(id) on delete set null
    );
    create unique index users_email_key on users (lower(email));
    create index users_created_at_idx on users (created_at);

    create table user_modules (
      user_id uuid not null references users(id) on delete cascade,
      module_id integer not null references modules(module_id) on delete cascade,
      primary key (user_id, module_id)
    );

    create table devices (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      device_id text not null,
      device_name text not null,
      browser text not null,
      device_kind text not null,
      ip text,
      user_agent text,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      unique (user_id, device_id)
    );

    create table sessions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      device_pk uuid not null references devices(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      revoked_reason text
    );
    create index sessions_user_idx on sessions (user_id);
    create index sessions_device_idx on sessions (device_pk) where revoked_at is null;

    create table refresh_tokens (
      token_hash text primary key,
      session_id uuid not null references sessions(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      rotated_at timestamptz
    );
    create index refresh_tokens_session_idx on refresh_tokens (session_id);

    create table password_resets (
      token_hash text primary key,
      user_id uuid not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    );

    create table mail_outbox (
      id uuid primary key default gen_random_uuid(),
      to_address text not null,
      subject text not null,
      text_body text not null,
      html_body text,
      status text not null check (status in ('stored', 'pending', 'sent', 'failed')),
      attempts integer not null default 0,
      created_at timestamptz not null default now(),
      sent_at timestamptz,
      locked_until timestamptz,
      error text
    );
    create index mail_outbox_pending_idx on mail_outbox (created_at) where status = 'pending';

    create table rate_limits (
      key text primary key,
      window_start timestamptz not null,
      count integer not null
    );

    create table app_settings (
      key text primary key,
      value text not null
    );
  `.execute(db);
}
