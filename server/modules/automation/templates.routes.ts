/**
 * Ready-made flows (issue 30, docs/automation-api.md "Templates"): the gallery
 * (`GET /api/automation-templates`, schemas/automation-templates.ts) and a new automation made
 * from one (`POST /api/automations/from-template`): created through the automations resource
 * (its checks, its empty draft, its events), then its draft saved as the template's definition.
 * Nothing is published: the person fills the template's choices and publishes. Same access as
 * creating an automation: the Automation module.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { AUTOMATION_TEMPLATES, templateById } from "../../../schemas/automation-templates";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest } from "../../http/errors";
import type { ResourceService } from "../../resources/service";
import { saveDraft } from "./definitions";

const config = { access: moduleAccess(MODULE_IDS.automation) };
const security = [{ bearer: [] }];
const tags = ["automations"];
const NAME_MAX = 120;

/** `base`, or `base 2`, `base 3`… : the first name no automation has. */
async function freeName(ctx: AppContext, base: string): Promise<string> {
  const taken = new Set(
    (
      await ctx.db
        .selectFrom("automations")
        .select("name")
        .where("name", "like", `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
        .execute()
    ).map((r) => r.name),
  );
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base} ${n}`;
  return name;
}

export async function automationTemplateRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  automations: ResourceService,
) {
  app.get(
    "/api/automation-templates",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Ready-made flows: each with its definition and the choices the person must make",
      },
    },
    async () => ({ data: AUTOMATION_TEMPLATES, total: AUTOMATION_TEMPLATES.length }),
  );

  app.post<{ Body: { templateId: string; name?: string } }>(
    "/api/automations/from-template",
    {
      // A retry with the same Idempotency-Key answers the automation the first call made.
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary:
          "A new automation whose draft is the template's flow (not published); answers it with its draft",
        body: {
          type: "object",
          additionalProperties: false,
          required: ["templateId"],
          properties: {
            templateId: { type: "string", title: "Template", minLength: 1, maxLength: 60 },
            name: { type: "string", title: "Name", maxLength: NAME_MAX },
          },
        },
      },
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const template = templateById(request.body.templateId);
      if (!template)
        throw badRequest("There is no such template", [
          { field: "templateId", message: "Template must be one of the gallery's templates" },
        ]);
      const name = request.body.name?.trim() || (await freeName(ctx, template.name));
      // The resource's own create: its checks (a name another automation has is a 400 on
      // `name`), its empty draft and webhook secret, its "created" event.
      const created = await automations.create({ name, description: template.description }, userId);
      const id = String(created.id);
      try {
        const draft = await saveDraft(ctx.db, id, template.definition, undefined, userId);
        return reply.status(201).send({ ...created, draft });
      } catch (error) {
        // A template that cannot be saved (a defect the tests catch) leaves no empty automation.
        await automations.remove([id], userId, false);
        throw error;
      }
    },
  );
}
