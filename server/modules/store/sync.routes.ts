/**
 * `/api/store/sync` and `/api/store/products` (issue 18): start a sync of a store (202; the one
 * queued or running is answered again), follow it, read its report; the store product list. The
 * Online store module on every route.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { productSchema } from "../../../schemas/products";
import {
  STORE_SYNC_ACTIONS,
  STORE_SYNC_STATUSES,
  type StartStoreSync,
  startStoreSyncSchema,
} from "../../../schemas/store-sync";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { type ListQuery, listQuerySchema } from "../../http/list-query";
import { recordSchemaOf } from "../../resources/records";
import { listStoreProducts } from "./store-products";
import type { StoreSyncs } from "./sync.service";

const config = { access: moduleAccess(MODULE_IDS.store) };
const security = [{ bearer: [] }];
const tags = ["online store"];

const nullableTime = { type: ["string", "null"], format: "date-time" } as const;

const syncSchema = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    connectionId: { type: "string", format: "uuid" },
    status: { type: "string", enum: STORE_SYNC_STATUSES },
    total: { type: "integer" },
    done: { type: "integer" },
    counts: {
      type: "object",
      properties: {
        created: { type: "integer" },
        updated: { type: "integer" },
        skipped: { type: "integer" },
        conflicts: { type: "integer" },
      },
    },
    error: { type: ["string", "null"] },
    createdAt: { type: "string", format: "date-time" },
    startedAt: nullableTime,
    finishedAt: nullableTime,
  },
} as const;

const reportRowSchema = {
  type: "object",
  properties: {
    sku: { type: "string" },
    action: { type: "string", enum: STORE_SYNC_ACTIONS },
    reason: { type: "string" },
    bcProductId: { type: "integer" },
    bcVariantId: { type: ["integer", "null"] },
  },
} as const;

const storeProductSchema = {
  ...recordSchemaOf(productSchema),
  properties: {
    ...recordSchemaOf(productSchema).properties,
    link: {
      type: "object",
      properties: {
        connectionId: { type: "string", format: "uuid" },
        bcProductId: { type: "integer" },
        bcVariantId: { type: ["integer", "null"] },
        storeModifiedAt: nullableTime,
        syncedAt: { type: "string", format: "date-time" },
      },
    },
  },
};

export async function storeSyncRoutes(app: FastifyInstance, ctx: AppContext, syncs: StoreSyncs) {
  app.post<{ Body: StartStoreSync }>(
    "/api/store/sync",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Sync a store into the catalogue (the default store unless named); 202 with the sync",
        body: startStoreSyncSchema,
        response: { 202: syncSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await syncs.start(request.body ?? {}, principalOf(request).userId)),
  );

  app.get(
    "/api/store/sync",
    {
      config,
      schema: {
        tags,
        security,
        summary: "The recent syncs, the latest first",
        response: { 200: { type: "object", properties: { data: { type: "array", items: syncSchema } } } },
      },
    },
    async () => ({ data: await syncs.list() }),
  );

  app.get<{ Params: { id: string } }>(
    "/api/store/sync/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A sync: its progress, its counts and (once ended) its report",
        params: {
          type: "object",
          required: ["id"],
          properties: { id: { type: "string", format: "uuid", title: "Sync" } },
        },
        response: {
          200: {
            ...syncSchema,
            properties: { ...syncSchema.properties, report: { type: "array", items: reportRowSchema } },
          },
        },
      },
    },
    async (request) => syncs.get(request.params.id),
  );

  app.get<{ Querystring: ListQuery }>(
    "/api/store/products",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Catalogue products linked to a store, with their link (the list contract of /api/products)",
        querystring: listQuerySchema,
        response: {
          200: {
            type: "object",
            properties: {
              data: { type: "array", items: storeProductSchema },
              total: { type: "integer" },
              totalExact: { type: "boolean" },
            },
          },
        },
      },
    },
    (request) => listStoreProducts(ctx, request.query),
  );
}
