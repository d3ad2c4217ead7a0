/**
 * `/cms/webhooks`: the CMS's outbound webhooks (entry published, unpublished, deleted) and
 * their delivery log, over the shared sender (server/webhooks). The secret is answered once,
 * when the hook is created.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";

export const CMS_WEBHOOK_EVENTS = ["entry.publish", "entry.unpublish", "entry.delete"] as const;

const config = { access: moduleAccess(MODULE_IDS.cms) };
const security = [{ bearer: [] }];
const tags = ["cms webhooks"];
const idParams = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", format: "uuid" } },
} as const;
const fields = {
  name: { type: "string", title: "Name", minLength: 1, maxLength: 120 },
  url: { type: "string", title: "URL", minLength: 1, maxLength: 2000 },
  events: {
    type: "array",
    title: "Events",
    minItems: 1,
    uniqueItems: true,
    items: { type: "string", enum: CMS_WEBHOOK_EVENTS },
  },
  active: { type: "boolean", title: "Active" },
} as const;

type Body = { name: string; url: string; events: string[]; active?: boolean };

export async function cmsWebhookRoutes(app: FastifyInstance, ctx: AppContext) {
  const cms = MODULE_IDS.cms;
  app.get(
    "/cms/webhooks",
    { config, schema: { tags, security, summary: "List the CMS's webhooks" } },
    async () => {
      const data = await ctx.webhooks.list(cms);
      return { data, total: data.length };
    },
  );
  app.post<{ Body: Body }>(
    "/cms/webhooks",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Add a webhook; the answer carries its signing secret, shown this once",
        body: {
          type: "object",
          additionalProperties: false,
          required: ["name", "url", "events"],
          properties: fields,
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await ctx.webhooks.create(cms, request.body, principalOf(request).userId)),
  );
  app.patch<{ Params: { id: string }; Body: Partial<Body> }>(
    "/cms/webhooks/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Change a webhook",
        params: idParams,
        body: { type: "object", additionalProperties: false, minProperties: 1, properties: fields },
      },
    },
    (request) => ctx.webhooks.update(cms, request.params.id, request.body),
  );
  app.delete<{ Params: { id: string } }>(
    "/cms/webhooks/:id",
    { config, schema: { tags, security, summary: "Delete a webhook and its log", params: idParams } },
    async (request, reply) => {
      await ctx.webhooks.remove(cms, request.params.id);
      return reply.status(204).send();
    },
  );
  app.get<{ Params: { id: string } }>(
    "/cms/webhooks/:id/deliveries",
    {
      config,
      schema: { tags, security, summary: "A webhook's last 50 deliveries, newest first", params: idParams },
    },
    async (request) => {
      const data = await ctx.webhooks.deliveries(cms, request.params.id);
      return { data, total: data.length };
    },
  );
}
