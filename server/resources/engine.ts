/**
 * The resource engine: CRUD routes for every resource definition, derived from its schema
 * (ARCHITECTURE.md §3). Thin routes; the work is in ResourceService.
 */
import type { FastifyInstance } from "fastify";
import type { ResourceDefinition } from "../../resources/contract";
import { canCreate, resourcePath } from "../../resources/contract";
import { moduleAccess, principalOf } from "../auth/access";
import type { AppContext } from "../context";
import { type ListQuery, listQuerySchema } from "../http/list-query";
import { idParams } from "../http/route-params";
import { bodySchemaOf, type Row, recordSchemaOf } from "./records";
import type { ResourceRules } from "./rules";
import { bodyCheckedByService, runtimeBodySchemaOf } from "./runtime-routes";
import { ResourceService } from "./service";

/** The body of a bulk delete (`{ ids }`), shared with module routes that delete in bulk. */
export const idsBody = {
  type: "object",
  required: ["ids"],
  additionalProperties: false,
  properties: {
    ids: {
      type: "array",
      minItems: 1,
      maxItems: 1000,
      uniqueItems: true,
      items: { type: "string", format: "uuid" },
    },
  },
} as const;

/** Registers the routes of one resource; returns its service for module-specific routes. */
export function registerResource(
  app: FastifyInstance,
  ctx: AppContext,
  def: ResourceDefinition,
  resolve: (name: string) => ResourceDefinition | undefined,
  rules: ResourceRules = {},
): ResourceService {
  const service = new ResourceService(ctx, def, resolve, rules);
  const path = resourcePath(def);
  const access = moduleAccess(def.moduleID);
  const tags = [def.name];
  const security = [{ bearer: [] }];
  // Custom fields are top-level keys of the record: the serialiser must not drop them.
  const record = def.schema["x-custom"]
    ? { ...recordSchemaOf(def.schema), additionalProperties: true }
    : recordSchemaOf(def.schema);
  const config = { access };
  // An `x-custom` resource's fields are known per request: its body is checked by the service.
  const runtime = def.schema["x-custom"] ? { validatorCompiler: bodyCheckedByService } : {};
  const body = (mode: "create" | "update") =>
    def.schema["x-custom"] ? runtimeBodySchemaOf(def.schema, mode) : bodySchemaOf(def.schema, mode);

  app.get<{ Querystring: ListQuery }>(
    path,
    {
      config,
      schema: {
        tags,
        security,
        summary: `List ${def.label.toLowerCase()}`,
        querystring: listQuerySchema,
        response: {
          200: {
            type: "object",
            properties: {
              data: { type: "array", items: record },
              total: { type: "integer" },
              totalExact: { type: "boolean" },
            },
          },
        },
      },
    },
    (request) => service.list(request.query),
  );

  app.get<{ Params: { id: string } }>(
    `${path}/:id`,
    {
      config,
      schema: {
        tags,
        security,
        summary: `Get a ${def.singular.toLowerCase()}`,
        params: idParams,
        response: { 200: record },
      },
    },
    (request) => service.get(request.params.id),
  );

  if (canCreate(def))
    app.post<{ Body: Row }>(
      path,
      {
        config: { ...config, idempotent: true },
        ...runtime,
        schema: {
          tags,
          security,
          summary: `Create a ${def.singular.toLowerCase()}`,
          body: body("create"),
          response: { 201: record },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(request.body, principalOf(request).userId)),
    );

  app.patch<{ Params: { id: string }; Body: Row }>(
    `${path}/:id`,
    {
      config,
      ...runtime,
      schema: {
        tags,
        security,
        summary: `Update a ${def.singular.toLowerCase()}`,
        params: idParams,
        body: body("update"),
        response: { 200: record },
      },
    },
    (request) => service.update(request.params.id, request.body, principalOf(request).userId),
  );

  app.delete<{ Params: { id: string } }>(
    `${path}/:id`,
    {
      config,
      schema: { tags, security, summary: `Delete a ${def.singular.toLowerCase()}`, params: idParams },
    },
    async (request, reply) => {
      await service.remove([request.params.id], principalOf(request).userId, true);
      return reply.status(204).send();
    },
  );

  app.post<{ Body: { ids: string[] } }>(
    `${path}/delete`,
    {
      config,
      schema: { tags, security, summary: `Delete several ${def.label.toLowerCase()}`, body: idsBody },
    },
    async (request) => ({
      deleted: await service.remove(request.body.ids, principalOf(request).userId, false),
    }),
  );

  return service;
}
