/**
 * Where PostgreSQL's own time goes during a bench's measured run, by statement, from
 * pg_stat_statements (opt-in: BENCH_PG_STATEMENTS=1; the extension ships with PostgreSQL's
 * contrib). The bench's throwaway cluster then preloads it; the counts are reset before the
 * measured side and printed after it, most total time first. Figures only.
 */
import { withPgClient } from "../scripts/pg-cluster";
import { env } from "./resource-engine-settings";

export const PG_STATEMENTS = env.BENCH_PG_STATEMENTS === "1";

/** Server settings for the throwaway cluster (none unless BENCH_PG_STATEMENTS=1). */
export function pgStatementsSettings(): Record<string, string> {
  return PG_STATEMENTS
    ? { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" }
    : {};
}

/** Forgets what was counted so far (the extension made first). */
export async function resetPgStatements(url: string | null): Promise<void> {
  if (!PG_STATEMENTS || !url) return;
  await withPgClient(url, async (c) => {
    await c.query("create extension if not exists pg_stat_statements");
    await c.query("select pg_stat_statements_reset()");
  });
}

/** Prints the statements counted since the reset, `perUnit` dividing the calls and times. */
export async function printPgStatements(
  url: string | null,
  perUnit: number,
  unit: string,
  top = 25,
): Promise<void> {
  if (!PG_STATEMENTS || !url) return;
  const { rows } = await withPgClient(url, (c) =>
    c.query<{ query: string; calls: string; total: number; rows: string }>(
      `select query, calls, total_exec_time + total_plan_time as total, rows
         from pg_stat_statements where query not like '%pg_stat_statements%'
        order by total desc limit $1`,
      [top],
    ),
  );
  const all = rows.reduce((sum, r) => sum + r.total, 0);
  console.log(
    `PostgreSQL's time by statement (pg_stat_statements, plan + execute), per ${unit}; top ${top}:`,
  );
  console.log("   µs/unit  calls/unit  rows/call  share  statement");
  for (const r of rows) {
    const text = r.query.replace(/\s+/g, " ");
    console.log(
      `  ${((r.total * 1000) / perUnit).toFixed(1).padStart(8)}  ${(Number(r.calls) / perUnit).toFixed(3).padStart(10)}  ` +
        `${(Number(r.rows) / Math.max(1, Number(r.calls))).toFixed(1).padStart(9)}  ${((100 * r.total) / all).toFixed(0).padStart(4)}%  ` +
        `${text.length > 120 ? `${text.slice(0, 117)}...` : text}`,
    );
  }
}
