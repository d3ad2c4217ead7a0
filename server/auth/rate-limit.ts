/**
 * Fixed-window attempt counters kept in the database, so every instance sees the same
 * counts and a restart does not reset them.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../db";

export const RATE_WINDOW_SECONDS = 15 * 60;

/**
 * Counts `amount` attempts (one by default) under `key` and returns the count in the current
 * window, these included.
 */
export async function hit(
  db: Kysely<Database>,
  key: string,
  windowSeconds = RATE_WINDOW_SECONDS,
  amount = 1,
) {
  const window = `${windowSeconds} seconds`;
  const row = await sql<{ count: number }>`
    insert into rate_limits (key, window_start, count) values (${key}, now(), ${amount})
    on conflict (key) do update set
      count = case when rate_limits.window_start < now() - ${window}::interval then ${amount} else rate_limits.count + ${amount} end,
      window_start = case when rate_limits.window_start < now() - ${window}::interval then now() else rate_limits.window_start end
    returning count`.execute(db);
  return row.rows[0]?.count ?? 1;
}

/** Attempts counted under `key` in the current window. */
export async function attempts(db: Kysely<Database>, key: string, windowSeconds = RATE_WINDOW_SECONDS) {
  const row = await db
    .selectFrom("rate_limits")
    .select("count")
    .where("key", "=", key)
    .where(sql<boolean>`window_start >= now() - ${`${windowSeconds} seconds`}::interval`)
    .executeTakeFirst();
  return row?.count ?? 0;
}

export async function resetAttempts(db: Kysely<Database>, key: string) {
  await db.deleteFrom("rate_limits").where("key", "=", key).execute();
}
