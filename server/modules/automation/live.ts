/**
 * Live updates of an automation's runs (the list's last run and failed badge, the run history).
 * Open pages are told once the moves committed, by the run engine's change feed
 * (server/runs/feed.ts, called about once a second: automation.kind.ts `onRunsChanged`), so a
 * burst of runs is one update per automation and no run's transaction writes a shared row.
 */
import { MODULE_IDS } from "../../../resources/modules";
import type { AppContext } from "../../context";

/** Socket resource of run changes: `ids` are the automations whose runs moved. */
export const RUNS_RESOURCE = "automation-runs";

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
