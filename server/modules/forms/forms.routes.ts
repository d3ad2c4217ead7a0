/**
 * The builder's routes of a form (`/forms/forms/{id}/…`): its draft, publishing, and versions
 * with restore. The form's record itself (name, slug, …) is the engine resource `forms`.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import type { FormDefinition } from "../../../schemas/form-definition";
import { formDefinitionSchema } from "../../../schemas/form-definition-schema";
import { moduleAccess, principalOf } from "../../auth/access";
import { uuid } from "../../http/route-params";
import type { FormsService } from "./forms.service";

const config = { access: moduleAccess(MODULE_IDS.forms) };
const security = [{ bearer: [] }];
const tags = ["forms"];
const formParams = { type: "object", required: ["id"], properties: { id: uuid } } as const;
const versionParams = {
  type: "object",
  required: ["id", "version"],
  properties: { id: uuid, version: { type: "integer", minimum: 1, maximum: 2_147_483_647 } },
} as const;

export async function formRoutes(app: FastifyInstance, forms: FormsService) {
  app.get<{ Params: { id: string } }>(
    "/forms/forms/:id/draft",
    { config, schema: { tags, security, summary: "The builder's draft of a form", params: formParams } },
    async (request) => forms.draft(request.params.id),
  );

  app.put<{ Params: { id: string }; Body: { definition: FormDefinition; revision: number } }>(
    "/forms/forms/:id/draft",
    {
      config,
      bodyLimit: 512 * 1024,
      schema: {
        tags,
        security,
        summary: "Save the draft (409 when someone saved since `revision`)",
        params: formParams,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["definition", "revision"],
          properties: {
            definition: formDefinitionSchema,
            revision: { type: "integer", title: "Revision", minimum: 1, maximum: 2_147_483_647 },
          },
        },
      },
    },
    async (request) =>
      forms.saveDraft(
        request.params.id,
        request.body.definition,
        request.body.revision,
        principalOf(request).userId,
      ),
  );

  app.post<{ Params: { id: string } }>(
    "/forms/forms/:id/publish",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Publish the draft: what the public sees from now on",
        params: formParams,
      },
    },
    async (request) => forms.publish(request.params.id, principalOf(request).userId),
  );

  app.get<{ Params: { id: string } }>(
    "/forms/forms/:id/versions",
    { config, schema: { tags, security, summary: "A form's versions, newest first", params: formParams } },
    async (request) => {
      const data = await forms.versions(request.params.id);
      return { data, total: data.length };
    },
  );

  app.get<{ Params: { id: string; version: number } }>(
    "/forms/forms/:id/versions/:version",
    { config, schema: { tags, security, summary: "One version of a form", params: versionParams } },
    async (request) => forms.version(request.params.id, request.params.version),
  );

  app.post<{ Params: { id: string; version: number } }>(
    "/forms/forms/:id/versions/:version/restore",
    { config, schema: { tags, security, summary: "Make a version the draft again", params: versionParams } },
    async (request) => forms.restore(request.params.id, request.params.version, principalOf(request).userId),
  );
}
