/**
 * An automation's runs (docs/automation-api.md, "Runs"): the list with filters (status, step,
 * dates, trigger record: `GET /api/automations/{id}/runs`), a run by hand (`POST …/run`), one run's history with each
 * step's input, output, timing and error (`GET /api/automation-runs/{id}`) and re-running a failed
 * run from its failed step or from the start (`POST /api/automation-runs/{id}/retry`; in bulk:
 * failures.routes.ts). Every route needs the Automation module.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { RETRY_FROM, type RetryFrom } from "../../../schemas/automation-failures";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { BoundStatements } from "../../db/statements";
import { badRequest, conflict, notFound } from "../../http/errors";
import { idParams, uuid } from "../../http/route-params";
import { RUN_STATUSES, type RunStatus } from "../../runs";
import { hasCrm, requireCrm, withoutRecords } from "./crm-access";
import { definitionsOf } from "./definitions";
import { retryRun } from "./failures";
import { AUTOMATION_KIND, startAutomation } from "./triggers";

const config = { access: moduleAccess(MODULE_IDS.automation) };
const security = [{ bearer: [] }];
const tags = ["automations"];

/** The start's read, kept compiled: sent by every run started by hand. */
const startReads = new BoundStatements();

interface RunsQuery {
  status?: RunStatus[];
  step?: string;
  from?: string;
  to?: string;
  record?: string;
  page: number;
  pageSize: number;
}

export async function automationRunRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Params: { id: string }; Querystring: RunsQuery }>(
    "/api/automations/:id/runs",
    {
      config,
      schema: {
        tags,
        security,
        summary: "An automation's runs, newest first (filters: status, step, dates, trigger record; paging)",
        params: idParams,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            status: {
              type: "array",
              title: "Status",
              items: { type: "string", enum: RUN_STATUSES },
              maxItems: RUN_STATUSES.length,
            },
            step: { type: "string", title: "Step", minLength: 1, maxLength: 100 },
            from: { type: "string", format: "date-time", title: "Started from" },
            to: { type: "string", format: "date-time", title: "Started before" },
            record: { type: "string", title: "Trigger record", minLength: 1, maxLength: 200 },
            page: { type: "integer", title: "Page", minimum: 1, maximum: 100_000, default: 1 },
            pageSize: { type: "integer", title: "Page size", minimum: 1, maximum: 200, default: 10 },
          },
        },
      },
    },
    async (request) => {
      await definitionsOf(ctx.db, request.params.id);
      const { status, step, from, to, record, page, pageSize } = request.query;
      // A search in the records is a way to read them: the CRM module's.
      if (record) requireCrm(request, "A search in the runs' trigger records");
      const startedFrom = from ? new Date(from) : undefined;
      const startedBefore = to ? new Date(to) : undefined;
      if (startedFrom && startedBefore && startedFrom >= startedBefore)
        throw badRequest("Invalid query: please correct the highlighted fields", [
          { field: "to", message: "must be after From" },
        ]);
      const runs = await ctx.runs.list({
        kind: AUTOMATION_KIND,
        ownerKey: request.params.id,
        status,
        step,
        startedFrom,
        startedBefore,
        contextText: record,
        page,
        pageSize,
      });
      return hasCrm(request) ? runs : { ...runs, data: runs.data.map(withoutRecords) };
    },
  );

  app.post<{ Params: { id: string }; Body: { clientId?: string; record?: Record<string, unknown> } }>(
    "/api/automations/:id/run",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Run the published version now, by hand (about a client, with a record of your own)",
        params: idParams,
        body: {
          type: "object",
          additionalProperties: false,
          properties: {
            clientId: { ...uuid, title: "Client" },
            record: { type: "object", title: "Record", maxProperties: 200 },
          },
        },
      },
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const id = request.params.id;
      const body = request.body ?? {};
      if (body.clientId) requireCrm(request, "A run about a client");
      // No transaction: one read (the automation, and the client when there is one), then the run
      // started in one statement (the run engine's start).
      // Sent by every start: a prepared statement on PostgreSQL.
      const read = startReads.bind("start", { clientId: body.clientId ?? null, id }, (v) =>
        ctx.db
          .selectFrom("automations as a")
          .leftJoin("automation_definitions as d", "d.automation_id", "a.id")
          .leftJoin("clients as c", (join) => join.on("c.id", "=", v<string | null>("clientId")))
          .selectAll("c")
          .select([
            "a.id as automation_id",
            "a.published_version as automation_version",
            "d.published as automation_published",
          ])
          .where("a.id", "=", v<string>("id"))
          .compile(),
      );
      const [found] = (await ctx.db.executeQuery(read)).rows;
      if (!found) throw notFound("Automation not found");
      const { automation_id, automation_version, automation_published, ...client } = found;
      const automation = {
        id: automation_id,
        published_version: automation_version,
        published: automation_published,
      };
      if (!automation.published_version || !automation.published)
        throw conflict("This automation was never published: publish it before running it");
      let record = body.record ?? {};
      if (body.clientId) {
        if (client.id === null) throw notFound("Client not found");
        record = { ...client, ...record };
      }
      const run = await startAutomation(ctx, ctx.db, automation, {
        kind: "manual",
        // As JSON, as the run keeps it (dispatchTrigger does the same).
        record: JSON.parse(JSON.stringify(record)) as Record<string, unknown>,
        subject: body.clientId ? { type: "client", id: body.clientId } : null,
        automationId: id,
        byHand: true,
        startedBy: userId,
      });
      return reply.status(201).send(run && !hasCrm(request) ? withoutRecords(run) : run);
    },
  );

  app.get<{ Params: { id: string } }>(
    "/api/automation-runs/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "One run with each step's input, output, timing and error, in the order reached",
        params: idParams,
      },
    },
    async (request) => {
      const run = await ctx.runs.get(request.params.id);
      if (!run || run.kind !== AUTOMATION_KIND) throw notFound("Run not found");
      return hasCrm(request) ? run : withoutRecords(run);
    },
  );

  app.post<{ Params: { id: string }; Body: { from?: RetryFrom } | undefined }>(
    "/api/automation-runs/:id/retry",
    {
      config,
      schema: {
        tags,
        security,
        summary:
          "Run a failed run again: from the step it failed on (the default), or as a new run from the start (409 unless it failed)",
        params: idParams,
        body: {
          type: ["object", "null"],
          additionalProperties: false,
          properties: { from: { type: "string", title: "From", enum: RETRY_FROM, default: "failed-step" } },
        },
      },
    },
    async (request) =>
      ctx.db.transaction().execute(async (trx) => {
        const run = await retryRun(ctx, trx, request.params.id, request.body?.from ?? "failed-step");
        return hasCrm(request) ? run : withoutRecords(run);
      }),
  );
}
