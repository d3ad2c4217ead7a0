/**
 * A second factor at sign-in (issue 26): TOTP (RFC 6238) with single-use recovery codes.
 * - `user_second_factors`: one authenticator per user, its secret sealed with the secret box
 *   (never in clear). `confirmed_at` null is an enrolment begun and not yet confirmed with a
 *   code, which does not count. `last_step` is the last time step accepted, so a code is never
 *   accepted twice (replay), on any instance.
 * - `user_recovery_codes`: ten per enrolment, kept as SHA-256 hashes (they are random and long,
 *   so a slow hash adds nothing), each spent once.
 * - `second_factor_challenges`: the short-lived, single-use proof that a password was right,
 *   handed back by sign-in instead of tokens; kept by hash. `kind` 'enrol' only allows enrolling
 *   (an account the policy requires to have a second factor and that has none).
 * - `sessions.second_factor`: how the session's sign-in passed the second step (null: it had none).
 * The policy ("nobody", "admins", "everyone") is the row `second_factor_required` of app_settings.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table user_second_factors (
      user_id uuid primary key references users (id) on delete cascade,
      secret_sealed text not null,
      confirmed_at timestamptz,
      last_step bigint,
      created_at timestamptz not null default now()
    );

    create table user_recovery_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      code_hash text not null,
      used_at timestamptz,
      created_at timestamptz not null default now(),
      constraint user_recovery_codes_code_key unique (user_id, code_hash)
    );

    create table second_factor_challenges (
      token_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      kind text not null check (kind in ('verify', 'enrol')),
      device_id text not null,
      device_name text not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index second_factor_challenges_expires_idx on second_factor_challenges (expires_at);

    alter table sessions add column second_factor text check (second_factor in ('totp', 'recovery', 'enrolled'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table sessions drop column second_factor;
    drop table second_factor_challenges;
    drop table user_recovery_codes;
    drop table user_second_factors;
  `.execute(db);
}
