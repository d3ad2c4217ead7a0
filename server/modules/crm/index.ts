/**
 * The CRM module (issue 16). Clients, opportunities, tasks, message templates and dropdown
 * options are engine resources (resources/crm.ts) with the module's rules; the module adds the
 * timeline and notes, makes clients of form answers, and seeds the option lists a new install
 * needs.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import type { SubmissionWriter } from "../forms/submission-writer";
import { seedDropdowns } from "./dropdowns";
import { formClients } from "./form-clients";
import { sequencesModule } from "./sequences";
import { timelineRoutes } from "./timeline.routes";

export interface CrmDependencies {
  /** The forms module's writer: its answers become clients. */
  submissions: SubmissionWriter;
}

export async function crmModule(app: FastifyInstance, ctx: AppContext, deps: CrmDependencies) {
  await seedDropdowns(ctx.db);
  await timelineRoutes(app, ctx);
  const enrol = await sequencesModule(app, ctx);
  deps.submissions.onStored(formClients(ctx, () => enrol));
}
