/**
 * The CRM module (issue 16). Clients, opportunities, tasks, message templates and dropdown
 * options are engine resources (resources/crm.ts) with the module's rules; the module adds the
 * timeline and notes, and seeds the option lists a new install needs.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { seedDropdowns } from "./dropdowns";
import { emailRoutes } from "./email.routes";
import { startInboundSmtp } from "./inbound-smtp";
import { timelineRoutes } from "./timeline.routes";

export async function crmModule(app: FastifyInstance, ctx: AppContext) {
  await seedDropdowns(ctx.db);
  await timelineRoutes(app, ctx);
  await emailRoutes(app, ctx);
  const inbound = await startInboundSmtp(ctx);
  if (inbound) app.addHook("onClose", () => inbound.close());
}
