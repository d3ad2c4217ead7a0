/**
 * The forms module (issue 15): forms as an engine resource (resources/forms.ts), their
 * definitions with draft, versions and publishing, public pages and submissions, the admins'
 * submissions lists and insights, and the module's webhooks.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import type { AppContext } from "../../context";
import { webhookRoutes } from "../../webhooks/webhook.routes";
import { notifyFormOwners } from "./answer-notices";
import { formRoutes } from "./forms.routes";
import { FormsService } from "./forms.service";
import { insightsRoutes } from "./insights.routes";
import { sweepPartials } from "./partial-store";
import { partialsRoutes } from "./partials.routes";
import { publicFormRoutes } from "./public.routes";
import { SUBMISSION_EVENT, SubmissionWriter } from "./submission-writer";
import { submissionRoutes } from "./submissions.routes";
import { ViewCounter } from "./view-counter";

export async function formsModule(app: FastifyInstance, ctx: AppContext) {
  const forms = new FormsService(ctx);
  const writer = new SubmissionWriter(ctx);
  const views = new ViewCounter(ctx);
  writer.onStored(notifyFormOwners(ctx));
  sweepPartials(ctx);
  await formRoutes(app, forms);
  await submissionRoutes(app, ctx, forms);
  await insightsRoutes(app, ctx, forms);
  await partialsRoutes(app, ctx, forms);
  await webhookRoutes(app, ctx, {
    moduleId: MODULE_IDS.forms,
    path: "/forms/webhooks",
    events: [SUBMISSION_EVENT],
    tag: "forms webhooks",
    moduleName: "Forms module",
  });
  await publicFormRoutes(app, ctx, { forms, writer, views });
  app.addHook("onClose", async () => {
    await writer.idle();
    await views.flush();
  });
  return { forms, writer, views };
}
