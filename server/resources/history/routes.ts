/**
 * History routes (issue 31), for every resource the engine serves, with no edit of its own:
 * - `GET /{base}/{name}/{id}/history`: the record's entries, newest first (the module's grant);
 * - `POST /{base}/{name}/{id}/history/{entryId}/restore`: a field (`{ field }`) or the whole
 *   record (`{}`) back to its value before the entry (restore.ts), where the record is edited;
 * - `GET /api/history?user=&from=&to=`: what one person changed over a period (administrators).
 */
import type { FastifyInstance } from "fastify";
import { canEdit, resourcePath } from "../../../resources/contract";
import { MODULE_IDS } from "../../../resources/modules";
import { historyPageSchema } from "../../../schemas/history";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest, type FieldError } from "../../http/errors";
import { uuid } from "../../http/route-params";
import { recordSchemaOf } from "../records";
import type { AnyDb } from "../rules";
import type { ResourceService } from "../service";
import { readHistory } from "./read";
import { restoreFromHistory } from "./restore";

const security = [{ bearer: [] }];

const pageQuery = {
  page: { type: "integer", minimum: 1, maximum: 100000, default: 1 },
  pageSize: { type: "integer", minimum: 1, maximum: 100, default: 20 },
} as const;

const recordParams = {
  type: "object",
  required: ["id"],
  properties: { id: uuid },
} as const;

const entryParams = {
  type: "object",
  required: ["id", "entryId"],
  properties: { id: uuid, entryId: { type: "string", pattern: "^[0-9]{1,18}$" } },
} as const;

const restoreBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    field: {
      type: "string",
      minLength: 1,
      maxLength: 200,
      description: "The one field to restore; none: the whole record",
    },
  },
} as const;

interface Paged {
  page: number;
  pageSize: number;
}

/** Field order of each resource's changes: its schema's. */
function fieldOrder(services: ReadonlyMap<string, ResourceService>) {
  return (resource: string) => {
    const def = services.get(resource)?.def;
    return def ? Object.keys(def.schema.properties) : undefined;
  };
}

/** The history routes of one resource. */
export function registerHistoryRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  service: ResourceService,
  services: ReadonlyMap<string, ResourceService>,
): void {
  const { def } = service;
  const path = resourcePath(def);
  const config = { access: moduleAccess(def.moduleID) };
  const tags = [def.name];
  const db = () => ctx.db as unknown as AnyDb;
  const order = fieldOrder(services);
  const singular = def.singular.toLowerCase();

  app.get<{ Params: { id: string }; Querystring: Paged }>(
    `${path}/:id/history`,
    {
      config,
      schema: {
        tags,
        security,
        summary: `History of a ${singular}`,
        description:
          "Every change to the record, newest first: who or what made it, when, each changed field's old and new value.",
        params: recordParams,
        querystring: { type: "object", additionalProperties: false, properties: pageQuery },
        response: { 200: historyPageSchema },
      },
    },
    async (request) => ({
      ...(await readHistory(
        db(),
        { resource: def.name, recordId: request.params.id },
        request.query.page,
        request.query.pageSize,
        order,
      )),
      restorable: canEdit(def),
    }),
  );

  if (!canEdit(def)) return;
  const record = def.schema["x-custom"]
    ? { ...recordSchemaOf(def.schema), additionalProperties: true }
    : recordSchemaOf(def.schema);
  app.post<{ Params: { id: string; entryId: string }; Body: { field?: string } }>(
    `${path}/:id/history/:entryId/restore`,
    {
      config,
      schema: {
        tags,
        security,
        summary: `Restore a ${singular}'s earlier value`,
        description:
          "Sets one field (`field`), or every field the entry or a later one changed (no `field`), back to its value before the entry, through the ordinary update (validated, recorded in the history).",
        params: entryParams,
        body: restoreBody,
        response: { 200: record },
      },
    },
    (request) =>
      restoreFromHistory(
        ctx,
        service,
        request.params.id,
        request.params.entryId,
        request.body?.field,
        principalOf(request).userId,
      ),
  );
}

/** A day (`YYYY-MM-DD`, from its start, or to its end with `end`) or an instant, or a 400 for the field. */
function instantOf(field: "from" | "to", text: string | undefined, problems: FieldError[]): Date | undefined {
  if (text === undefined || text === "") return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const at = new Date(day ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(text)) {
    problems.push({
      field,
      message: `${field === "from" ? "From" : "To"} must be a date (YYYY-MM-DD) or a date and time (ISO 8601)`,
    });
    return undefined;
  }
  // A day as `to` includes the whole day.
  if (day && field === "to") at.setUTCDate(at.getUTCDate() + 1);
  return at;
}

/** `GET /api/history`: what one person changed over a period, for administrators. */
export function registerHistoryAdminRoute(
  app: FastifyInstance,
  ctx: AppContext,
  services: ReadonlyMap<string, ResourceService>,
): void {
  const order = fieldOrder(services);
  app.get<{ Querystring: Paged & { user: string; from?: string; to?: string } }>(
    "/api/history",
    {
      config: { access: moduleAccess(MODULE_IDS.users, { adminOnly: true }) },
      schema: {
        tags: ["users"],
        security,
        summary: "What one person changed over a period",
        description:
          "Every record change `user` made (by hand, by CSV import, by restore) from `from` to `to` (days include the whole day), newest first. Administrators only.",
        querystring: {
          type: "object",
          additionalProperties: false,
          required: ["user"],
          properties: {
            user: uuid,
            from: { type: "string", maxLength: 40 },
            to: { type: "string", maxLength: 40 },
            ...pageQuery,
          },
        },
        response: { 200: historyPageSchema },
      },
    },
    async (request) => {
      const { user, page, pageSize } = request.query;
      const problems: FieldError[] = [];
      const from = instantOf("from", request.query.from, problems);
      const to = instantOf("to", request.query.to, problems);
      if (from && to && from >= to) problems.push({ field: "to", message: "To must be after From" });
      if (problems.length)
        throw badRequest(problems.length === 1 ? problems[0].message : "2 fields need correcting", problems);
      return readHistory(
        ctx.db as unknown as AnyDb,
        { userId: user, from, to },
        page,
        pageSize,
        order,
        (name) => {
          const def = services.get(name)?.def;
          return def ? { table: def.schema["x-table"], field: def.schema["x-label"] } : undefined;
        },
      );
    },
  );
}
