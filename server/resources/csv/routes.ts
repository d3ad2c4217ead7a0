/**
 * The CSV routes every resource gets beside its CRUD routes (docs/resource-api.md, "CSV"):
 *
 * - `GET /<base>/<name>/export.csv` with the list query (q, filters, sort): the file, streamed.
 * - `POST /<base>/<name>/import` with a `text/csv` body, `?dryRun=true` to check only: the
 *   import's report (import.ts); 400 with the report when a row is wrong, nothing written.
 *
 * Both paths are static, so Fastify's router prefers them to `/:id` whatever the order of
 * registration: `export.csv` never reaches the record route. Same module permission as the
 * resource's other routes.
 */
import type { FastifyInstance } from "fastify";
import type { ResourceDefinition } from "../../../resources/contract";
import { resourcePath } from "../../../resources/contract";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest, errorBody } from "../../http/errors";
import { type ListQuery, listQuerySchema } from "../../http/list-query";
import type { AnyDb, ResourceRules } from "../rules";
import type { ResourceService } from "../service";
import { exportCsv } from "./export";
import { importCsv } from "./import";
import { MAX_IMPORT_BYTES } from "./parse";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads `text/csv` bodies as text, once for every resource's import. The bytes must be UTF-8
 * (what "CSV UTF-8" in a spreadsheet writes): other encodings would become replacement
 * characters in the records.
 */
export function registerCsvParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    "text/csv",
    { parseAs: "buffer", bodyLimit: MAX_IMPORT_BYTES },
    (_req, body, done) => {
      try {
        done(null, strictUtf8.decode(body as Buffer));
      } catch {
        done(
          badRequest('The file is not UTF-8 text: save it as "CSV UTF-8" and import it again', [
            { field: "(body)", message: "The file is not valid UTF-8 text" },
          ]),
        );
      }
    },
  );
}

const dryRunQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    dryRun: { type: "boolean", default: false, description: "Check the file and report; write nothing" },
  },
} as const;

export interface CsvRouteOptions {
  service: ResourceService;
  resolve: (name: string) => ResourceDefinition | undefined;
  rules: ResourceRules;
}

/** Registers the export and import routes of one resource. */
export function registerCsvRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  def: ResourceDefinition,
  { service, resolve, rules }: CsvRouteOptions,
): void {
  const path = resourcePath(def);
  const config = { access: moduleAccess(def.moduleID) };
  const tags = [def.name];
  const security = [{ bearer: [] }];
  const plural = def.label.toLowerCase();
  const db = () => ctx.db as unknown as AnyDb;

  app.get<{ Querystring: ListQuery }>(
    `${path}/export.csv`,
    {
      config,
      // A HEAD would read every chunk only to throw the text away.
      exposeHeadRoute: false,
      schema: {
        tags,
        security,
        summary: `Export ${plural} as CSV`,
        description:
          "Every record the list query matches (q, filters, sort; paging is ignored), streamed as CSV with a UTF-8 BOM; header row: the fields' titles.",
        querystring: listQuerySchema,
      },
    },
    async (request, reply) => {
      // An `x-custom` resource's file holds its custom fields as they are now.
      const stream = await exportCsv(db(), await service.defNow(), resolve, request.query);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${def.name}.csv"`)
        .header("cache-control", "no-store")
        .send(stream);
    },
  );

  app.post<{ Body: unknown; Querystring: { dryRun: boolean } }>(
    `${path}/import`,
    {
      config,
      bodyLimit: MAX_IMPORT_BYTES,
      schema: {
        tags,
        security,
        summary: `Import ${plural} from CSV (all rows or none)`,
        description:
          "A text/csv body (UTF-8, header row of field titles or names). Rows update the record with their key and create the others. Answers { message, created, updated, errors: [{ row, field, message }] }; with errors, 400 and nothing written.",
        consumes: ["text/csv"],
        querystring: dryRunQuery,
      },
    },
    async (request, reply) => {
      if (typeof request.body !== "string") {
        throw badRequest("Send the file as the request body, with Content-Type: text/csv");
      }
      const actorId = principalOf(request).userId;
      const { report, createdIds, updatedIds } = await importCsv(
        {
          app: ctx,
          db: db(),
          def: await service.defNow(),
          resolve,
          rules,
          translate: (error) => service.translate(error),
          history: service.history,
          actorId,
          dryRun: request.query.dryRun,
        },
        request.body,
      );
      const publish = (type: "created" | "updated", ids: string[]) => {
        if (ids.length)
          ctx.events.publish({ resource: def.name, moduleID: def.moduleID, type, ids, actorId });
      };
      publish("created", createdIds);
      publish("updated", updatedIds);
      // A refused import answers in the error shape of every 400, its report beside it; `details`
      // holds the same per-row errors, for clients that read only the error shape.
      if (report.errors.length && !request.query.dryRun) {
        return reply.status(400).send({ ...errorBody(400, report.message, report.errors), ...report });
      }
      return report;
    },
  );
}
