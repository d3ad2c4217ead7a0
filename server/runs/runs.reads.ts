/**
 * The run engine's reads for history and figures (engine.get, list, counts): no locks, and
 * nothing here moves a run. The writes are in runs.repository.ts.
 */
import { sql } from "kysely";
import { pageWithTotal } from "../http/list-page";
import type { Db, Run, RunCounts, RunStatus, RunStep, RunSubject } from "./contract";
import { RUN_STATUSES } from "./contract";
import { toRun, toStep } from "./rows";

export async function getRun(db: Db, runId: string): Promise<Run | undefined> {
  const row = await db.selectFrom("runs").selectAll().where("id", "=", runId).executeTakeFirst();
  return row ? toRun(row) : undefined;
}

export async function stepsOf(db: Db, runId: string): Promise<RunStep[]> {
  const rows = await db
    .selectFrom("run_steps")
    .selectAll()
    .where("run_id", "=", runId)
    .orderBy("seq")
    .execute();
  return rows.map(toStep);
}

export interface ListFilter {
  kind: string;
  ownerKey?: string;
  subject?: RunSubject;
  status?: readonly RunStatus[];
  step?: string;
  startedFrom?: Date;
  startedBefore?: Date;
  contextText?: string;
  limit: number;
  offset: number;
}

export async function listRuns(db: Db, filter: ListFilter): Promise<{ data: Run[]; total: number }> {
  let query = db.selectFrom("runs").where("kind", "=", filter.kind);
  if (filter.ownerKey !== undefined) query = query.where("owner_key", "=", filter.ownerKey);
  if (filter.subject) {
    query = query.where("subject_type", "=", filter.subject.type).where("subject_id", "=", filter.subject.id);
  }
  if (filter.status?.length) query = query.where("status", "in", filter.status);
  if (filter.step !== undefined) query = query.where("cursor", "=", filter.step);
  if (filter.startedFrom) query = query.where("started_at", ">=", filter.startedFrom);
  if (filter.startedBefore) query = query.where("started_at", "<", filter.startedBefore);
  if (filter.contextText) {
    // The context as JSON text: a value with a quote or a backslash is searched as JSON writes it.
    const text = JSON.stringify(filter.contextText)
      .slice(1, -1)
      .replace(/[\\%_]/g, "\\$&");
    query = query.where(sql<string>`cast(context as text)`, "ilike", `%${text}%`);
  }
  const { rows, total } = await pageWithTotal(
    db,
    query.selectAll().orderBy("started_at", "desc").orderBy("id", "desc"),
    { limit: filter.limit, offset: filter.offset },
  );
  return { data: rows.map(toRun), total };
}

export async function countRuns(
  db: Db,
  kind: string,
  ownerKeys: readonly string[],
): Promise<Map<string, RunCounts>> {
  const counts = new Map<string, RunCounts>();
  for (const key of ownerKeys) {
    counts.set(key, {
      total: 0,
      byStatus: Object.fromEntries(RUN_STATUSES.map((s) => [s, 0])) as Record<RunStatus, number>,
      byExitReason: {},
    });
  }
  if (!ownerKeys.length) return counts;
  const rows = await db
    .selectFrom("runs")
    .select(["owner_key", "status", "exit_reason", (eb) => eb.fn.countAll<string>().as("n")])
    .where("kind", "=", kind)
    .where("owner_key", "in", ownerKeys)
    .groupBy(["owner_key", "status", "exit_reason"])
    .execute();
  for (const row of rows) {
    const entry = counts.get(row.owner_key);
    if (!entry) continue;
    const n = Number(row.n);
    entry.total += n;
    entry.byStatus[row.status] += n;
    if (row.status === "exited" && row.exit_reason) {
      entry.byExitReason[row.exit_reason] = (entry.byExitReason[row.exit_reason] ?? 0) + n;
    }
  }
  return counts;
}
