/**
 * An automation's last test run per person (issue 30, "Test a flow before publishing it"), by
 * hand (not a resource): the sample it ran with and each step's result, so "Test this step" runs
 * one step again with the outputs the steps before it gave last time. One row per automation and
 * user, replaced by each test; gone with the automation or the user.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table automation_test_runs (
      automation_id uuid not null references automations (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      sample jsonb not null,
      result jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (automation_id, user_id)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table automation_test_runs`.execute(db);
}
