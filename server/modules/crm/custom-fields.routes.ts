/**
 * `/crm/custom-fields` (docs/crm-api.md, "Custom fields"): anyone with the CRM module reads
 * the definitions (their screens need them); administrators add, change, reorder and delete.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { DROPDOWN_LIST_PATTERN } from "../../../schemas/crm";
import { CUSTOM_FIELD_KEY_PATTERN, CUSTOM_FIELD_TYPES } from "../../../schemas/custom-fields";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { idParams, uuid } from "../../http/route-params";
import { customEntities } from "./custom-entities";
import { type CustomFieldInput, CustomFieldsService } from "./custom-fields.service";

const read = { access: moduleAccess(MODULE_IDS.crm) };
const write = { access: moduleAccess(MODULE_IDS.crm, { adminOnly: true }) };
const security = [{ bearer: [] }];
const tags = ["crm custom fields"];

const entity = { type: "string", title: "Entity", enum: [...customEntities().keys()] } as const;
const properties = {
  entity,
  key: {
    type: "string",
    title: "Key",
    minLength: 1,
    maxLength: 40,
    pattern: CUSTOM_FIELD_KEY_PATTERN,
    "x-patternMessage": "may only contain lower-case letters, digits and _, and must start with a letter",
  },
  label: { type: "string", title: "Label", minLength: 1, maxLength: 80, pattern: "\\S" },
  type: { type: "string", title: "Type", enum: CUSTOM_FIELD_TYPES },
  list: {
    type: ["string", "null"],
    title: "Dropdown list",
    maxLength: 40,
    pattern: DROPDOWN_LIST_PATTERN,
    "x-patternMessage": "must be the key of a dropdown list",
  },
  required: { type: "boolean", title: "Required" },
  position: { type: "integer", title: "Order", minimum: 0, maximum: 100000 },
  description: { type: ["string", "null"], title: "Help text", maxLength: 300 },
} as const;

const fieldSchema = {
  type: "object",
  properties: {
    id: uuid,
    entity: { type: "string" },
    key: { type: "string" },
    label: { type: "string" },
    type: { type: "string", enum: CUSTOM_FIELD_TYPES },
    list: { type: ["string", "null"] },
    required: { type: "boolean" },
    position: { type: "integer" },
    description: { type: ["string", "null"] },
  },
} as const;

export async function customFieldRoutes(app: FastifyInstance, ctx: AppContext) {
  const fields = new CustomFieldsService(ctx);

  app.get<{ Querystring: { entity?: string } }>(
    "/crm/custom-fields",
    {
      config: read,
      schema: {
        tags,
        security,
        summary: "Custom fields, in order (all entities, or one)",
        querystring: { type: "object", additionalProperties: false, properties: { entity } },
        response: { 200: { type: "object", properties: { data: { type: "array", items: fieldSchema } } } },
      },
    },
    async (request) => ({ data: await fields.list(request.query.entity) }),
  );

  app.post<{ Body: CustomFieldInput }>(
    "/crm/custom-fields",
    {
      config: { ...write, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Add a custom field (administrators)",
        body: {
          type: "object",
          additionalProperties: false,
          required: ["entity", "key", "label", "type"],
          properties,
        },
        response: { 201: fieldSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await fields.create(request.body, principalOf(request).userId)),
  );

  app.patch<{ Params: { id: string }; Body: Partial<CustomFieldInput> }>(
    "/crm/custom-fields/:id",
    {
      config: write,
      schema: {
        tags,
        security,
        summary: "Change a custom field (administrators; type and list only while no record has a value)",
        params: idParams,
        body: { type: "object", additionalProperties: false, minProperties: 1, properties },
        response: { 200: fieldSchema },
      },
    },
    (request) => fields.update(request.params.id, request.body, principalOf(request).userId),
  );

  app.delete<{ Params: { id: string } }>(
    "/crm/custom-fields/:id",
    {
      config: write,
      schema: {
        tags,
        security,
        summary: "Delete a custom field and its values (administrators)",
        params: idParams,
      },
    },
    async (request, reply) => {
      await fields.remove(request.params.id, principalOf(request).userId);
      return reply.status(204).send();
    },
  );

  app.put<{ Body: { entity: string; ids: string[] } }>(
    "/crm/custom-fields/order",
    {
      config: write,
      schema: {
        tags,
        security,
        summary: "Put an entity's custom fields in a new order (administrators)",
        body: {
          type: "object",
          additionalProperties: false,
          required: ["entity", "ids"],
          properties: {
            entity,
            ids: { type: "array", title: "Fields", items: uuid, maxItems: 100, uniqueItems: true },
          },
        },
        response: { 200: { type: "object", properties: { data: { type: "array", items: fieldSchema } } } },
      },
    },
    async (request) => ({
      data: await fields.reorder(request.body.entity, request.body.ids, principalOf(request).userId),
    }),
  );
}
