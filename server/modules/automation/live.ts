/**
 * Live updates of an automation's runs (the list's last run and failed badge, the run history).
 * A run starts and ends inside transactions with no after-commit hook, and a socket event sent
 * before the commit would make open pages read too early: so a small job is queued in the
 * transaction (one per automation while queued: a burst of runs is one update), and the job,
 * which runs only once the transaction committed, tells open pages.
 */
import { MODULE_IDS } from "../../../resources/modules";
import type { AppContext } from "../../context";
import type { Db } from "../../runs";

export const LIVE_JOB = "automation.live";

/** Socket resource of run changes: `ids` are the automations whose runs moved. */
export const RUNS_RESOURCE = "automation-runs";

interface LiveChange {
  automationId: string;
}

/** Queues the live update of an automation's runs, in the transaction changing them. */
export async function queueLive(ctx: AppContext, db: Db, automationId: string): Promise<void> {
  await ctx.jobs.enqueue<LiveChange>(
    LIVE_JOB,
    { automationId },
    { db, key: `automation-live:${automationId}`, maxAttempts: 1 },
  );
}

/** Tells open pages that an automation and its runs changed (after the commit). */
export function publishLive(ctx: AppContext, automationId: string): void {
  for (const resource of ["automations", RUNS_RESOURCE])
    ctx.events.publish({
      resource,
      moduleID: MODULE_IDS.automation,
      type: "updated",
      ids: [automationId],
      actorId: null,
    });
}

export function registerLiveJob(ctx: AppContext): void {
  ctx.jobs.register<LiveChange>(LIVE_JOB, async ({ payload }) => publishLive(ctx, payload.automationId), {
    concurrency: 2,
  });
}
