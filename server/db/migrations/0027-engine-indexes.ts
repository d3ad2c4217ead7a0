/**
 * Indexes of the run engine and the job queue under load (bench/automation-runs.ts):
 * - the change feed (server/runs/feed.ts) reads which owners' runs moved lately: runs by kind
 *   and time of their last move;
 * - taking jobs reads them in the order it takes them (run_at, then id): the take index gets the
 *   id, so a take with thousands of jobs due stops at the few it wants instead of sorting them all;
 * - taking jobs fails those whose worker died on their last attempt, found by their lease among
 *   running jobs only; without it every take walked the queued jobs of its names too.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index runs_kind_updated_idx on runs (kind, updated_at);
    create index jobs_running_lease_idx on jobs (locked_until) where state = 'running';
    drop index jobs_take_idx;
    create index jobs_take_idx on jobs (name, run_at, id) where state in ('queued', 'running');
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index jobs_take_idx;
    create index jobs_take_idx on jobs (name, run_at) where state in ('queued', 'running');
    drop index jobs_running_lease_idx;
    drop index runs_kind_updated_idx;
  `.execute(db);
}
