/**
 * A sequence's own routes beside the engine's `/crm/sequences` (docs/crm-api.md, "Sequences"):
 * its steps (`GET`/`PUT …/steps`), enrolments (`POST`, `GET`, `DELETE …/enrolments`), figures
 * (`GET …/stats`), and a client's active sequences (`GET /crm/clients/{id}/sequences`).
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../../resources/modules";
import {
  ENROLMENT_STATUSES,
  type EnrolmentStatus,
  EXIT_REASONS,
  MAX_ENROLMENT_CLIENTS,
  type SaveStepsRequest,
  saveStepsSchema,
} from "../../../../schemas/crm-sequence-steps";
import { moduleAccess, principalOf } from "../../../auth/access";
import type { AppContext } from "../../../context";
import { notFound } from "../../../http/errors";
import { idParams, uuid } from "../../../http/route-params";
import { enrolClients, listEnrolments, sequenceStats, stopEnrolment } from "./enrolments";
import { publishLive } from "./live";
import { readSteps, saveSteps } from "./steps";

const config = { access: moduleAccess(MODULE_IDS.crm) };
const security = [{ bearer: [] }];
const tags = ["sequences"];

const listQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    status: {
      type: "array",
      title: "Status",
      items: { type: "string", enum: ENROLMENT_STATUSES },
      maxItems: ENROLMENT_STATUSES.length,
    },
    exitReason: { type: "string", title: "Exit reason", enum: EXIT_REASONS },
    q: { type: "string", title: "Search", maxLength: 200 },
    page: { type: "integer", title: "Page", minimum: 1, maximum: 100_000, default: 1 },
    pageSize: { type: "integer", title: "Page size", minimum: 1, maximum: 200, default: 10 },
  },
} as const;

interface ListQuery {
  status?: EnrolmentStatus[];
  exitReason?: string;
  q?: string;
  page: number;
  pageSize: number;
}

export async function sequenceRoutes(app: FastifyInstance, ctx: AppContext) {
  const publishSequence = (id: string, actorId: string) =>
    ctx.events.publish({
      resource: "sequences",
      moduleID: MODULE_IDS.crm,
      type: "updated",
      ids: [id],
      actorId,
    });

  app.get<{ Params: { id: string } }>(
    "/crm/sequences/:id/steps",
    { config, schema: { tags, security, summary: "A sequence's steps and their version", params: idParams } },
    async (request) => readSteps(ctx.db, request.params.id),
  );

  app.put<{ Params: { id: string }; Body: SaveStepsRequest }>(
    "/crm/sequences/:id/steps",
    {
      config,
      bodyLimit: 512 * 1024,
      schema: {
        tags,
        security,
        summary: "Save the steps as the next version (409 when someone saved since `version`)",
        params: idParams,
        body: saveStepsSchema,
      },
    },
    async (request) => {
      const { userId } = principalOf(request);
      const saved = await saveSteps(ctx, {
        sequenceId: request.params.id,
        ...request.body,
        actorId: userId,
      });
      publishSequence(request.params.id, userId);
      return saved;
    },
  );

  app.post<{ Params: { id: string }; Body: { clientIds: string[]; source?: "manual" | "list" } }>(
    "/crm/sequences/:id/enrolments",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Enrol clients (one, or a list selection); those already active in it are skipped",
        params: idParams,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["clientIds"],
          properties: {
            clientIds: {
              type: "array",
              title: "Clients",
              minItems: 1,
              maxItems: MAX_ENROLMENT_CLIENTS,
              items: { ...uuid, title: "Client" },
            },
            source: { type: "string", title: "Source", enum: ["manual", "list"] },
          },
        },
      },
    },
    async (request) => {
      const { userId } = principalOf(request);
      const { clientIds, source } = request.body;
      const result = await ctx.db.transaction().execute((trx) =>
        enrolClients(ctx, trx, {
          sequenceId: request.params.id,
          clientIds,
          actorId: userId,
          source: source ?? (clientIds.length === 1 ? "manual" : "list"),
        }),
      );
      // Told at once rather than by the queued job's next poll: the person is looking.
      publishLive(ctx, { sequenceId: request.params.id, clientIds: result.enrolled.map((e) => e.clientId) });
      return result;
    },
  );

  app.get<{ Params: { id: string }; Querystring: ListQuery }>(
    "/crm/sequences/:id/enrolments",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A sequence's enrolments, newest first: status, step, next time, exit reason",
        params: idParams,
        querystring: listQuery,
      },
    },
    async (request) => {
      const exists = await ctx.db
        .selectFrom("crm_sequences")
        .select("id")
        .where("id", "=", request.params.id)
        .executeTakeFirst();
      if (!exists) throw notFound("Sequence not found");
      return listEnrolments(ctx.db, { sequenceId: request.params.id, ...request.query });
    },
  );

  app.delete<{ Params: { id: string; runId: string } }>(
    "/crm/sequences/:id/enrolments/:runId",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Stop an enrolment (the client leaves the sequence)",
        params: { type: "object", required: ["id", "runId"], properties: { id: uuid, runId: uuid } },
      },
    },
    async (request, reply) => {
      await stopEnrolment(ctx, request.params.id, request.params.runId);
      return reply.status(204).send();
    },
  );

  app.get<{ Params: { id: string } }>(
    "/crm/sequences/:id/stats",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A sequence's figures: enrolled, active, replied, finished, opted out…",
        params: idParams,
      },
    },
    async (request) => sequenceStats(ctx, ctx.db, request.params.id),
  );

  app.get<{ Params: { id: string } }>(
    "/crm/clients/:id/sequences",
    {
      config,
      schema: { tags, security, summary: "The sequences a client is active in", params: idParams },
    },
    async (request) => {
      const client = await ctx.db
        .selectFrom("clients")
        .select("id")
        .where("id", "=", request.params.id)
        .executeTakeFirst();
      if (!client) throw notFound("Client not found");
      return listEnrolments(ctx.db, { clientId: client.id, status: ["active"], page: 1, pageSize: 100 });
    },
  );
}
