/**
 * An automation's own routes beside the engine's `/api/automations` (docs/automation-api.md):
 * its draft (`GET`/`PUT …/draft`), publishing (`POST …/publish`), versions and the webhook's
 * secret (`POST …/webhook-secret`). Its runs are runs.routes.ts. Every route needs the
 * Automation module.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { idParams, uuid } from "../../http/route-params";
import { requireCrm, touchesCrm } from "./crm-access";
import { publish, readDraft, rotateWebhookSecret, saveDraft, version, versions } from "./definitions";
import { requireEntities } from "./entity-access";
import { scheduleNext } from "./schedule";

const config = { access: moduleAccess(MODULE_IDS.automation) };
const security = [{ bearer: [] }];
const tags = ["automations"];

export async function automationRoutes(app: FastifyInstance, ctx: AppContext) {
  const changed = (id: string, actorId: string) =>
    ctx.events.publish({
      resource: "automations",
      moduleID: MODULE_IDS.automation,
      type: "updated",
      ids: [id],
      actorId,
    });

  app.get<{ Params: { id: string } }>(
    "/api/automations/:id/draft",
    {
      config,
      schema: {
        tags,
        security,
        summary: "The canvas's draft, and the incoming webhook's path",
        params: idParams,
      },
    },
    async (request) => readDraft(ctx.db, request.params.id),
  );

  app.put<{ Params: { id: string }; Body: { definition: unknown; revision?: number } }>(
    "/api/automations/:id/draft",
    {
      config,
      bodyLimit: 512 * 1024,
      schema: {
        tags,
        security,
        summary:
          "Save the draft (400 per field: its schema, repeated step IDs, steps after a branch; 409 when someone saved since `revision`)",
        params: idParams,
        // The definition's own schema is large (nested to the deepest branch): checked by the
        // service with a validator compiled at the first save, not at every start.
        body: {
          type: "object",
          additionalProperties: false,
          required: ["definition"],
          properties: {
            definition: { type: "object", title: "Automation" },
            revision: { type: "integer", title: "Revision", minimum: 1, maximum: 2_147_483_647 },
          },
        },
      },
    },
    async (request) => {
      const { userId } = principalOf(request);
      const { definition, revision } = request.body;
      const draft = await saveDraft(ctx.db, request.params.id, definition, revision, userId);
      changed(request.params.id, userId);
      return draft;
    },
  );

  app.post<{ Params: { id: string } }>(
    "/api/automations/:id/publish",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Publish the draft as the next version (400 with each node's problem when it cannot run)",
        params: idParams,
      },
    },
    async (request) => {
      const { userId } = principalOf(request);
      const id = request.params.id;
      const published = await publish(ctx.db, id, userId, async (trx, definition) => {
        if (touchesCrm(definition)) requireCrm(request, "Publishing this automation");
        await requireEntities(ctx, request, definition);
        await scheduleNext(ctx, trx, id, definition, new Date());
      });
      changed(id, userId);
      return published;
    },
  );

  app.post<{ Params: { id: string } }>(
    "/api/automations/:id/webhook-secret",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Replace the incoming webhook's secret (the old address stops working); answers the draft",
        params: idParams,
      },
    },
    async (request) => rotateWebhookSecret(ctx.db, request.params.id, principalOf(request).userId),
  );

  app.get<{ Params: { id: string } }>(
    "/api/automations/:id/versions",
    { config, schema: { tags, security, summary: "Published versions, newest first", params: idParams } },
    async (request) => {
      const data = await versions(ctx.db, request.params.id);
      return { data, total: data.length };
    },
  );

  app.get<{ Params: { id: string; version: number } }>(
    "/api/automations/:id/versions/:version",
    {
      config,
      schema: {
        tags,
        security,
        summary: "One published version's flow",
        params: {
          type: "object",
          required: ["id", "version"],
          properties: { id: uuid, version: { type: "integer", minimum: 1, maximum: 2_147_483_647 } },
        },
      },
    },
    async (request) => version(ctx.db, request.params.id, request.params.version),
  );
}
