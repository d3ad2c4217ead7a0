/**
 * Workflow automation (issue 17): automations as an engine resource (`/api/automations`), their
 * flows as draft and published versions, runs on the run engine (kind 'automation'), the
 * triggers that start them (triggers.ts, called by the modules where the events happen), the
 * schedule's job and the incoming webhook. docs/automation-api.md.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { registerAutomationKind } from "./automation.kind";
import { automationRoutes } from "./automations.routes";
import { automationHookRoutes } from "./hooks.routes";
import { registerScheduleJob } from "./schedule";

export { automationRules } from "./automation.rules";
export { AUTOMATION_KIND, dispatchTrigger, type TriggerEvent } from "./triggers";

export async function automationModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerAutomationKind(ctx);
  registerScheduleJob(ctx);
  await automationRoutes(app, ctx);
  await automationHookRoutes(app, ctx);
}
