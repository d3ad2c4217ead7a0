/**
 * The CRM module (issue 16). Clients, opportunities, tasks, message templates and dropdown
 * options are engine resources (resources/crm.ts) with the module's rules; the module adds the
 * timeline and notes, makes clients of form answers, and seeds the option lists a new install
 * needs.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import type { SubmissionWriter } from "../forms/submission-writer";
import { boardRoutes } from "./board.routes";
import { calendarRoutes } from "./calendar";
import { registerIndexJob } from "./custom-field-indexes";
import { customFieldRoutes } from "./custom-fields.routes";
import { seedDropdowns } from "./dropdowns";
import { emailRoutes } from "./email.routes";
import { emailTrackingRoutes } from "./email-tracking.routes";
import { formClients } from "./form-clients";
import { startInboundSmtp } from "./inbound-smtp";
import { mergeRoutes } from "./merge.routes";
import { sequencesModule } from "./sequences";
import { smsRoutes } from "./sms.routes";
import { smsTimelineListener } from "./sms.service";
import { smsHookRoutes } from "./sms-hooks.routes";
import { registerTaskReminders } from "./task.rules";
import { timelineRoutes } from "./timeline.routes";

export interface CrmDependencies {
  /** The forms module's writer: its answers become clients. */
  submissions: SubmissionWriter;
}

export async function crmModule(app: FastifyInstance, ctx: AppContext, deps: CrmDependencies) {
  await seedDropdowns(ctx.db);
  registerIndexJob(ctx);
  await timelineRoutes(app, ctx);
  await boardRoutes(app, ctx);
  registerTaskReminders(ctx);
  const enrol = await sequencesModule(app, ctx);
  deps.submissions.onStored(formClients(ctx, () => enrol));
  await calendarRoutes(app, ctx);
  await emailRoutes(app, ctx);
  await emailTrackingRoutes(app, ctx);
  const inbound = await startInboundSmtp(ctx);
  if (inbound) app.addHook("onClose", () => inbound.close());
  await customFieldRoutes(app, ctx);
  await mergeRoutes(app, ctx);
  ctx.sms.onStatusChange(smsTimelineListener(ctx));
  await smsRoutes(app, ctx);
  await smsHookRoutes(app, ctx);
}
