/**
 * `/api/store/connections` (issue 18): the online store's connected stores — list, connect
 * (checked with the store before it is saved), rename, new token (checked), make default, check
 * again, remove. The Online store module on every route; the API token is never answered.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import {
  COMMERCE_PLATFORMS,
  type CreateStoreConnection,
  createStoreConnectionSchema,
  STORE_CONNECTION_STATUSES,
  type UpdateStoreConnection,
  updateStoreConnectionSchema,
} from "../../../schemas/store";
import { moduleAccess, principalOf } from "../../auth/access";
import type { StoreConnections } from "./connections.service";

const config = { access: moduleAccess(MODULE_IDS.store) };
const security = [{ bearer: [] }];
const tags = ["online store"];
const PATH = "/api/store/connections";

const idParams = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", format: "uuid", title: "Connection" } },
} as const;

const connectionSchema = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    platform: { type: "integer", enum: Object.keys(COMMERCE_PLATFORMS).map(Number) },
    name: { type: "string" },
    storeHash: { type: "string" },
    storeName: { type: ["string", "null"] },
    currency: { type: ["string", "null"] },
    isDefault: { type: "boolean" },
    status: { type: "string", enum: STORE_CONNECTION_STATUSES },
    lastCheckedAt: { type: ["string", "null"], format: "date-time" },
    lastError: { type: ["string", "null"] },
    lastSyncAt: { type: ["string", "null"], format: "date-time" },
    webhooks: { type: "string", enum: ["none", "registered", "failing"] },
    webhooksError: { type: ["string", "null"] },
    createdAt: { type: "string", format: "date-time" },
  },
} as const;

const checkSchema = {
  type: "object",
  properties: {
    ok: { type: "boolean" },
    storeName: { type: "string" },
    currency: { type: "string" },
    field: { type: ["string", "null"] },
    message: { type: "string" },
    checkedAt: { type: "string", format: "date-time" },
  },
} as const;

export async function storeConnectionRoutes(app: FastifyInstance, connections: StoreConnections) {
  app.get(
    PATH,
    {
      config,
      schema: {
        tags,
        security,
        summary: "The connected stores, the default first",
        response: {
          200: { type: "object", properties: { data: { type: "array", items: connectionSchema } } },
        },
      },
    },
    async () => ({ data: await connections.list() }),
  );

  app.post<{ Body: CreateStoreConnection }>(
    PATH,
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Connect a store: checked with the store before it is saved (400 on the field at fault)",
        body: createStoreConnectionSchema,
        response: { 201: connectionSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await connections.create(request.body, principalOf(request).userId)),
  );

  app.get<{ Params: { id: string } }>(
    `${PATH}/:id`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "A connected store",
        params: idParams,
        response: { 200: connectionSchema },
      },
    },
    async (request) => connections.get(request.params.id),
  );

  app.patch<{ Params: { id: string }; Body: UpdateStoreConnection }>(
    `${PATH}/:id`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Rename a store, give it a new API token (checked first) or make it the default",
        params: idParams,
        body: updateStoreConnectionSchema,
        response: { 200: connectionSchema },
      },
    },
    async (request) => connections.update(request.params.id, request.body),
  );

  app.post<{ Params: { id: string } }>(
    `${PATH}/:id/test`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Check a store again with its token (the answer says how it went, and is kept)",
        params: idParams,
        response: { 200: checkSchema },
      },
    },
    async (request) => connections.test(request.params.id),
  );

  app.delete<{ Params: { id: string } }>(
    `${PATH}/:id`,
    {
      config,
      schema: { tags, security, summary: "Remove a store (its token is forgotten)", params: idParams },
    },
    async (request, reply) => {
      await connections.remove(request.params.id);
      return reply.status(204).send();
    },
  );
}
