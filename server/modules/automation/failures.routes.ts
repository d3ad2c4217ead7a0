/**
 * Failed runs run again in bulk (issue 30, docs/automation-api.md "When a run fails"):
 * `POST /api/automations/{id}/runs/retry` with `{ ids, from }` answers how many were run again
 * and each id's outcome; a run that did not fail is refused (its message says why), the others
 * go on. Needs the Automation module, like every route of the module.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { MAX_BULK_RETRY, RETRY_FROM, type RetryFrom } from "../../../schemas/automation-failures";
import { moduleAccess } from "../../auth/access";
import type { AppContext } from "../../context";
import { idParams, uuid } from "../../http/route-params";
import { definitionsOf } from "./definitions";
import { retryRuns } from "./failures";

export async function automationFailureRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post<{ Params: { id: string }; Body: { ids: string[]; from: RetryFrom } }>(
    "/api/automations/:id/runs/retry",
    {
      config: { access: moduleAccess(MODULE_IDS.automation) },
      schema: {
        tags: ["automations"],
        security: [{ bearer: [] }],
        summary: "Run failed runs of the automation again, from their failed step or from the start",
        params: idParams,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["ids", "from"],
          properties: {
            ids: {
              type: "array",
              title: "Runs",
              items: { ...uuid, title: "Run" },
              minItems: 1,
              maxItems: MAX_BULK_RETRY,
            },
            from: { type: "string", title: "From", enum: RETRY_FROM },
          },
        },
      },
    },
    async (request) => {
      await definitionsOf(ctx.db, request.params.id);
      return retryRuns(ctx, request.params.id, request.body.ids, request.body.from);
    },
  );
}
