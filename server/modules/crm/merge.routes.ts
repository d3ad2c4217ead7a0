/** `POST /crm/clients/merge`: duplicates merged into one client (merge.service.ts). */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { uuid } from "../../http/route-params";
import { type MergeInput, mergeClients } from "./merge.service";

export async function mergeRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post<{ Body: MergeInput }>(
    "/crm/clients/merge",
    {
      // A retried merge (its answer lost) with the same key answers again instead of failing.
      config: { access: moduleAccess(MODULE_IDS.crm), idempotent: true },
      schema: {
        tags: ["clients"],
        security: [{ bearer: [] }],
        summary: "Merge duplicate clients into one",
        description:
          "In one transaction: every row pointing at a duplicate (opportunities, tasks, timeline, messages…) points at the primary, the duplicates are deleted, the primary's empty fields take their values, tags are united, and the primary's timeline records the merge.",
        body: {
          type: "object",
          additionalProperties: false,
          required: ["primaryId", "duplicateIds"],
          properties: {
            primaryId: { ...uuid, title: "Client to keep" },
            duplicateIds: {
              type: "array",
              title: "Duplicates",
              items: uuid,
              minItems: 1,
              maxItems: 20,
              uniqueItems: true,
            },
          },
        },
      },
    },
    (request) => mergeClients(ctx, request.body, principalOf(request).userId),
  );
}
