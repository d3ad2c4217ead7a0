/**
 * The CRM module (issue 16). Clients, opportunities, tasks, message templates and dropdown
 * options are engine resources (resources/crm.ts) with the module's rules; the module adds the
 * timeline and notes, and seeds the option lists a new install needs.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { seedDropdowns } from "./dropdowns";
import { smsRoutes } from "./sms.routes";
import { smsTimelineListener } from "./sms.service";
import { smsHookRoutes } from "./sms-hooks.routes";
import { timelineRoutes } from "./timeline.routes";

export async function crmModule(app: FastifyInstance, ctx: AppContext) {
  await seedDropdowns(ctx.db);
  await timelineRoutes(app, ctx);
  ctx.sms.onStatusChange(smsTimelineListener(ctx));
  await smsRoutes(app, ctx);
  await smsHookRoutes(app, ctx);
}
