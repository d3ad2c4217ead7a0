/**
 * The schedule trigger (cron in a time zone): a durable job per automation, due at the next time
 * its published cron names (`next_run_at`). The job starts the run, then queues the next one,
 * in one transaction, so a restart neither loses nor doubles a time. A job whose time is no
 * longer the automation's next (republished, paused and changed) does nothing.
 */
import type { Transaction } from "kysely";
import type { AutomationDefinition } from "../../../schemas/automation";
import { nextCronTime } from "../../../src/lib/cron";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { parsedJson } from "../../db/json";
import { dispatchTrigger } from "./triggers";

export const SCHEDULE_JOB = "automation.schedule";

interface SchedulePayload {
  automationId: string;
  /** The time this job stands for (ISO). */
  at: string;
}

/** Sets the automation's next scheduled time from its published trigger and queues its job. */
export async function scheduleNext(
  ctx: AppContext,
  trx: Transaction<Database>,
  automationId: string,
  definition: AutomationDefinition,
  after: Date,
): Promise<Date | null> {
  const { trigger } = definition;
  const next =
    trigger.kind === "schedule" && trigger.cron
      ? nextCronTime(trigger.cron, after, trigger.timeZone ?? "UTC")
      : null;
  await trx
    .updateTable("automation_definitions")
    .set({ next_run_at: next })
    .where("automation_id", "=", automationId)
    .execute();
  if (next)
    await ctx.jobs.enqueue<SchedulePayload>(
      SCHEDULE_JOB,
      { automationId, at: next.toISOString() },
      { key: `automation-schedule:${automationId}:${next.toISOString()}`, runAt: next, db: trx },
    );
  return next;
}

export function registerScheduleJob(ctx: AppContext): void {
  ctx.jobs.register<SchedulePayload>(SCHEDULE_JOB, async ({ payload }) => {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom("automation_definitions")
        .select(["published", "next_run_at"])
        .where("automation_id", "=", payload.automationId)
        .forUpdate()
        .executeTakeFirst();
      if (!row?.published || !row.next_run_at) return;
      if (new Date(row.next_run_at).getTime() !== new Date(payload.at).getTime()) return;
      const definition = parsedJson<AutomationDefinition>(row.published);
      // Paused: no run, but the schedule goes on, so a resumed automation runs at its next time.
      await dispatchTrigger(ctx, trx, {
        kind: "schedule",
        record: { scheduledAt: payload.at },
        automationId: payload.automationId,
      });
      const after = new Date(Math.max(Date.now(), new Date(payload.at).getTime()));
      await scheduleNext(ctx, trx, payload.automationId, definition, after);
    });
  });
}
