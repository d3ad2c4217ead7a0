/**
 * History is kept HISTORY_RETENTION_DAYS days (config `historyRetentionDays`, default 365):
 * a recurring job on the app's job queue deletes older entries, a batch at a
 * time (found through the BRIN index on `at`).
 */
import { sql } from "kysely";
import type { AppContext } from "../../context";
import type { AnyDb } from "../rules";

export const HISTORY_PRUNE_JOB = "history.prune";
const PRUNE_EVERY_MS = 6 * 60 * 60 * 1000;
const PRUNE_BATCH = 5000;

/** Deletes entries older than `days` days, in batches; answers how many went. */
export async function pruneHistory(db: AnyDb, days: number, batch = PRUNE_BATCH): Promise<number> {
  let pruned = 0;
  for (;;) {
    // By the rows' places (ctid): found through the BRIN on `at`, deleted without an index on `id`.
    const result = await sql`delete from record_history where ctid = any(array(
        select ctid from record_history
        where at < now() - make_interval(days => ${days}::int)
        limit ${batch}))`.execute(db);
    const n = Number(result.numAffectedRows ?? 0);
    pruned += n;
    if (n < batch) return pruned;
  }
}

/** Registers the recurring prune. */
export function pruneHistoryRegularly(ctx: AppContext): void {
  const db = ctx.db as unknown as AnyDb;
  ctx.jobs.recurring<null>(HISTORY_PRUNE_JOB, PRUNE_EVERY_MS, null, async () => {
    const pruned = await pruneHistory(db, ctx.config.historyRetentionDays);
    if (pruned) ctx.log.info({ pruned }, "record history past its retention deleted");
    return null;
  });
}
