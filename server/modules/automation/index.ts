/**
 * Workflow automation (issue 17): automations as an engine resource (`/api/automations`), their
 * flows as draft and published versions, runs on the run engine (kind 'automation'), the
 * triggers that start them (triggers.ts, called by the modules where the events happen), the
 * schedule's job and the incoming webhook. docs/automation-api.md.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { watchRecords } from "../../resources/record-events";
import type { ResourceService } from "../../resources/service";
import type { EntryLifecycle } from "../cms/entry-lifecycle";
import type { SubmissionWriter } from "../forms/submission-writer";
import { registerAutomationKind } from "./automation.kind";
import { automationRoutes } from "./automations.routes";
import { entryPublished, formSubmitted } from "./content-events";
import { automationEntityRoutes } from "./entity-access";
import { automationFailureRoutes } from "./failures.routes";
import { automationHookRoutes } from "./hooks.routes";
import { RecordTriggers } from "./record-triggers";
import { automationRunRoutes } from "./runs.routes";
import { registerScheduleJob } from "./schedule";
import { automationTemplateRoutes } from "./templates.routes";
import { automationTestRoutes } from "./test-runs.routes";

export { automationRules } from "./automation.rules";
export { AUTOMATION_KIND, dispatchTrigger, type TriggerEvent } from "./triggers";

export interface AutomationDependencies {
  /** Form answers: the "form submitted" trigger (registered after the CRM's, which makes clients). */
  submissions: SubmissionWriter;
  /** CMS publishes: the "CMS entry published" trigger. */
  cms?: EntryLifecycle;
  /** The automations resource: a template's new automation is made through it. */
  automations?: ResourceService;
}

export async function automationModule(
  app: FastifyInstance,
  ctx: AppContext,
  deps: AutomationDependencies,
): Promise<void> {
  registerAutomationKind(ctx);
  // Every entity's writes may start automations (record triggers).
  watchRecords(ctx, new RecordTriggers(ctx));
  registerScheduleJob(ctx);
  deps.submissions.onStored(formSubmitted(ctx));
  deps.cms?.onPublishing(entryPublished(ctx));
  await automationRoutes(app, ctx);
  await automationEntityRoutes(app, ctx);
  await automationRunRoutes(app, ctx);
  await automationHookRoutes(app, ctx);
  if (deps.automations) await automationTemplateRoutes(app, ctx, deps.automations);
  await automationTestRoutes(app, ctx);
  await automationFailureRoutes(app, ctx);
}
