/**
 * A module's outbound webhooks and their delivery log (`/cms/webhooks`: entry published,
 * unpublished, deleted; `/forms/webhooks`: submission created), over the shared sender
 * (webhooks.ts). The secret is answered once, when the hook is created.
 */
import type { FastifyInstance } from "fastify";
import { moduleAccess, principalOf } from "../auth/access";
import type { AppContext } from "../context";
import { idParams } from "../http/route-params";

export interface WebhookRoutesOptions {
  /** The module whose hooks these are. */
  moduleId: number;
  /** Where the routes live (`/cms/webhooks`). */
  path: string;
  /** The events a hook may listen to. */
  events: readonly string[];
  /** OpenAPI tag and the module's name in summaries. */
  tag: string;
  moduleName: string;
}

const security = [{ bearer: [] }];
const fieldsOf = (events: readonly string[]) => ({
  name: { type: "string", title: "Name", minLength: 1, maxLength: 120 },
  url: { type: "string", title: "URL", minLength: 1, maxLength: 2000 },
  events: {
    type: "array",
    title: "Events",
    minItems: 1,
    uniqueItems: true,
    items: { type: "string", enum: events },
  },
  active: { type: "boolean", title: "Active" },
});

type Body = { name: string; url: string; events: string[]; active?: boolean };

export async function webhookRoutes(app: FastifyInstance, ctx: AppContext, options: WebhookRoutesOptions) {
  const { moduleId: cms, path } = options;
  const config = { access: moduleAccess(cms) };
  const tags = [options.tag];
  const fields = fieldsOf(options.events);
  app.get(
    path,
    { config, schema: { tags, security, summary: `List the ${options.moduleName}'s webhooks` } },
    async () => {
      const data = await ctx.webhooks.list(cms);
      return { data, total: data.length };
    },
  );
  app.post<{ Body: Body }>(
    path,
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
    `${path}/:id`,
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
    `${path}/:id`,
    { config, schema: { tags, security, summary: "Delete a webhook and its log", params: idParams } },
    async (request, reply) => {
      await ctx.webhooks.remove(cms, request.params.id);
      return reply.status(204).send();
    },
  );
  app.get<{ Params: { id: string } }>(
    `${path}/:id/deliveries`,
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
