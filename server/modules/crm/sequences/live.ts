/**
 * Live updates of what a sequence did. Its steps write inside the run engine's transaction,
 * which has no after-commit hook, and a socket event sent before the commit would make open
 * pages read too early: so a step queues a small job in its own transaction, and the job (which
 * runs only once that transaction has committed) tells open pages: the client's timeline, the
 * sequence's figures and enrolments, new tasks.
 */
import { MODULE_IDS } from "../../../../resources/modules";
import type { AppContext } from "../../../context";
import type { Db } from "../timeline";
import { timelineChanged } from "../timeline";

export const LIVE_JOB = "crm.sequence-live";

/** Socket resource of enrolment changes: `ids` are the sequences whose enrolments moved. */
export const ENROLMENTS_RESOURCE = "sequence-enrolments";

export interface LiveChange {
  sequenceId: string;
  clientIds: string[];
  taskIds?: string[];
}

/** Queues the live update of a change, in the transaction making it. */
export async function queueLive(ctx: AppContext, trx: Db, change: LiveChange): Promise<void> {
  await ctx.jobs.enqueue<LiveChange>(LIVE_JOB, change, { db: trx, maxAttempts: 1 });
}

/** Sends the socket events of committed changes (after the commit: no job runs before it). */
export function publishLive(ctx: AppContext, change: LiveChange): void {
  timelineChanged(ctx, change.clientIds, null);
  ctx.events.publish({
    resource: ENROLMENTS_RESOURCE,
    moduleID: MODULE_IDS.crm,
    type: "updated",
    ids: [change.sequenceId],
    actorId: null,
  });
  if (change.taskIds?.length)
    ctx.events.publish({
      resource: "tasks",
      moduleID: MODULE_IDS.crm,
      type: "created",
      ids: change.taskIds,
      actorId: null,
    });
}

export function registerLiveJob(ctx: AppContext): void {
  ctx.jobs.register<LiveChange>(LIVE_JOB, async ({ payload }) => publishLive(ctx, payload), {
    concurrency: 2,
  });
}
