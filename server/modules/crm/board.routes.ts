/**
 * The pipeline board's routes (docs/crm-api.md "Pipeline board"):
 * `GET /crm/opportunities/board` (columns with counts and totals, cards in column order) and
 * `POST /crm/opportunities/{id}/move` (a card to a place in a stage's column). Won and lost go
 * through the engine's `PATCH /crm/opportunities/{id}`, where the opportunity rules check them.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import type { BoardQuery, MoveTarget } from "../../../schemas/crm-board";
import { opportunitySchema } from "../../../schemas/crm-opportunities";
import { CURRENCIES } from "../../../schemas/products";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest } from "../../http/errors";
import { uuid } from "../../http/route-params";
import { recordSchemaOf } from "../../resources/records";
import { moveOpportunity, readBoard } from "./board.service";

const config = { access: moduleAccess(MODULE_IDS.crm) };
const security = [{ bearer: [] }];
const tags = ["opportunities"];
const day = { type: ["string", "null"], format: "date" } as const;

const UUID_OR_NONE = "^(none|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$";

const boardQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    owner: {
      type: "string",
      title: "Owner",
      pattern: UUID_OR_NONE,
      "x-patternMessage": "must be a user's id, or none for opportunities without an owner",
    },
    from: { type: "string", format: "date", title: "Expected close from" },
    to: { type: "string", format: "date", title: "Expected close to" },
    q: { type: "string", title: "Search", maxLength: 200 },
    ids: { type: "array", title: "Cards", items: uuid, minItems: 1, maxItems: 200, uniqueItems: true },
  },
} as const;

const totalSchema = {
  type: "object",
  properties: {
    currency: { type: "string", enum: CURRENCIES },
    value: { type: "number" },
    weighted: { type: "number" },
  },
} as const;

const boardSchema = {
  type: "object",
  properties: {
    columns: {
      type: "array",
      items: {
        type: "object",
        properties: {
          stage: { type: "string" },
          label: { type: "string" },
          probability: { type: ["integer", "null"] },
          color: { type: ["string", "null"] },
          retired: { type: "boolean" },
          count: { type: "integer" },
          totals: { type: "array", items: totalSchema },
        },
      },
    },
    cards: {
      type: "array",
      items: {
        type: "object",
        properties: {
          id: uuid,
          title: { type: "string" },
          stage: { type: "string" },
          value: { type: "number" },
          currency: { type: "string" },
          client_id: uuid,
          client_name: { type: "string" },
          client_company: { type: ["string", "null"] },
          owner_id: { type: ["string", "null"], format: "uuid" },
          expected_close: day,
          position: { type: "number" },
        },
      },
    },
    owners: {
      type: "array",
      items: { type: "object", properties: { id: uuid, name: { type: "string" } } },
    },
    truncated: { type: "boolean" },
  },
} as const;

const moveBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["stage"],
  properties: {
    stage: { type: "string", title: "Stage", minLength: 1, maxLength: 40 },
    after: { type: ["string", "null"], format: "uuid", title: "After" },
    before: { type: ["string", "null"], format: "uuid", title: "Before" },
  },
} as const;

const RANGE_BACKWARDS = "The end of the date range is before its start";

export async function boardRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Querystring: BoardQuery }>(
    "/crm/opportunities/board",
    {
      config,
      schema: {
        tags,
        security,
        summary: "The pipeline board: open opportunities by stage, with counts and totals",
        querystring: boardQuerySchema,
        response: { 200: boardSchema },
      },
    },
    async (request) => {
      const { from, to } = request.query;
      if (from && to && from > to)
        throw badRequest(RANGE_BACKWARDS, [{ field: "to", message: RANGE_BACKWARDS }]);
      return readBoard(ctx.db, request.query);
    },
  );

  app.post<{ Params: { id: string }; Body: MoveTarget }>(
    "/crm/opportunities/:id/move",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Move an opportunity to a place in a stage's column of the board",
        params: { type: "object", required: ["id"], properties: { id: uuid } },
        body: moveBodySchema,
        response: { 200: recordSchemaOf(opportunitySchema) },
      },
    },
    (request) => moveOpportunity(ctx, request.params.id, request.body, principalOf(request).userId),
  );
}
