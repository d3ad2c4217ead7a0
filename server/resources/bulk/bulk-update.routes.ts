/**
 * The bulk-edit routes every resource gets (docs/resource-api.md, "Bulk edit"), with its
 * module's permission, as PATCH has:
 *
 * - `POST …/bulk-update` `{ ids | filters + q, field, value }`: 200 with the outcome when run
 *   inline (up to BULK_INLINE_MAX records), 202 with the job's progress otherwise. Honours an
 *   `Idempotency-Key`, so a second click with the same key gets the first answer.
 * - `GET …/bulk-update/{id}`: a job's progress and refusals.
 *
 * The job's handler is registered once for every resource (registerBulkUpdateJob).
 */
import type { FastifyInstance } from "fastify";
import type { ResourceDefinition } from "../../../resources/contract";
import { resourcePath } from "../../../resources/contract";
import { BULK_UPDATE_MAX, type BulkUpdateInput } from "../../../schemas/saved-views";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { idParams } from "../../http/route-params";
import type { ResourceService } from "../service";
import { BULK_UPDATE_JOB, BulkUpdates } from "./bulk-update.service";

const bulks = new WeakMap<AppContext, BulkUpdates>();

/** The app's bulk edits over its resources' services, and the job that runs the large ones. */
export function registerBulkUpdateJob(ctx: AppContext, services: ReadonlyMap<string, ResourceService>): void {
  const bulk = new BulkUpdates(ctx, services);
  bulks.set(ctx, bulk);
  ctx.jobs.register<{ bulkId: string }>(BULK_UPDATE_JOB, (job) => bulk.run(job));
}

const field = {
  type: "string",
  title: "Field",
  minLength: 1,
  maxLength: 100,
  description: "The one field to set (a writable field of the resource)",
} as const;
const value = { title: "Value", description: "The value, as a PATCH of that field takes it (null clears)" };

const bulkSchema = {
  type: "object",
  properties: {
    id: { type: ["string", "null"], format: "uuid", description: "null when it ran inline" },
    status: { type: "string", enum: ["queued", "running", "finished", "failed"] },
    field: { type: "string" },
    total: { type: "integer" },
    done: { type: "integer" },
    updated: { type: "integer" },
    refused: { type: "integer" },
    errors: {
      type: "array",
      items: {
        type: "object",
        properties: {
          id: { type: "string", format: "uuid" },
          label: { type: ["string", "null"] },
          message: { type: "string" },
        },
      },
    },
    error: { type: ["string", "null"] },
  },
} as const;

/** Registers the bulk-edit routes of one resource. */
export function registerBulkUpdateRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  def: ResourceDefinition,
  service: ResourceService,
): void {
  const path = `${resourcePath(def)}/bulk-update`;
  const config = { access: moduleAccess(def.moduleID) };
  const tags = [def.name];
  const security = [{ bearer: [] }];
  const plural = def.label.toLowerCase();
  const bulk = () => {
    const found = bulks.get(ctx);
    if (!found) throw new Error("registerBulkUpdateJob was not called");
    return found;
  };

  app.post<{ Body: BulkUpdateInput }>(
    path,
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: `Set one field on many ${plural}`,
        description: `The records by \`ids\`, or every record \`filters\` and \`q\` match (as the list reads them; at most ${BULK_UPDATE_MAX}). Each is updated as a PATCH of that field would; refusals are counted and listed. Up to 200 records: 200 with the outcome; more: 202 with a job to follow at GET …/bulk-update/{id}.`,
        body: {
          type: "object",
          required: ["field", "value"],
          additionalProperties: false,
          properties: {
            ids: {
              type: "array",
              title: "Records",
              minItems: 1,
              maxItems: BULK_UPDATE_MAX,
              uniqueItems: true,
              items: { type: "string", format: "uuid" },
              description: "The records to change; without it, every record `filters` and `q` match",
            },
            filters: {
              type: "array",
              title: "Filters",
              maxItems: 50,
              items: { type: "object" },
              description: "Refine CrudFilters, as the list's `filters` (not with `ids`)",
            },
            q: {
              type: "string",
              title: "Search",
              maxLength: 200,
              description: "As the list's `q` (not with `ids`)",
            },
            field,
            value,
          },
        },
        response: { 200: bulkSchema, 202: bulkSchema },
      },
    },
    async (request, reply) => {
      const { inline, bulk: outcome } = await bulk().start(
        service,
        request.body,
        principalOf(request).userId,
      );
      return reply.status(inline ? 200 : 202).send(outcome);
    },
  );

  app.get<{ Params: { id: string } }>(
    `${path}/:id`,
    {
      config,
      schema: {
        tags,
        security,
        summary: `Progress of a bulk edit of ${plural}`,
        params: idParams,
        response: { 200: bulkSchema },
      },
    },
    (request) => bulk().get(def.name, request.params.id, principalOf(request)),
  );
}
