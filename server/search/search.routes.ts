/**
 * `GET /api/search?q=&limit=`: search everywhere (the admin app's Ctrl+K menu). Signed in is the
 * route's rule; which records come back is decided per source by the person's grants, on the
 * server (search.service.ts): a source whose module the person lacks is never read.
 */
import type { FastifyInstance } from "fastify";
import type { ResourceDefinition } from "../../resources/contract";
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LENGTH, SEARCH_MAX_LIMIT } from "../../schemas/search";
import { principalOf, SIGNED_IN } from "../auth/access";
import type { AppContext } from "../context";
import { badRequest } from "../http/errors";
import { MODULE_SOURCES } from "./module-sources";
import { resourceSources } from "./resource-sources";
import { SearchService } from "./search.service";

const querystring = {
  type: "object",
  required: ["q"],
  additionalProperties: false,
  properties: {
    q: { type: "string", title: "Search text", minLength: 1, maxLength: SEARCH_MAX_LENGTH },
    limit: {
      type: "integer",
      title: "Limit",
      minimum: 1,
      maximum: SEARCH_MAX_LIMIT,
      default: SEARCH_DEFAULT_LIMIT,
    },
  },
} as const;

const hit = {
  type: "object",
  properties: {
    id: { type: "string" },
    title: { type: "string" },
    subtitle: { type: ["string", "null"] },
    path: { type: "string" },
  },
} as const;

const response = {
  type: "object",
  properties: {
    q: { type: "string" },
    groups: {
      type: "array",
      items: {
        type: "object",
        properties: {
          resource: { type: "string" },
          label: { type: "string" },
          icon: { type: "string" },
          hits: { type: "array", items: hit },
          more: { type: "boolean" },
        },
      },
    },
  },
} as const;

/** Registers the route over these resources (the app's, a test's extra entity included) and the module sources. */
export async function searchRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  resources: readonly ResourceDefinition[],
) {
  const service = new SearchService(ctx.db, [...resourceSources(resources), ...MODULE_SOURCES]);
  app.get<{ Querystring: { q: string; limit?: number } }>(
    "/api/search",
    {
      config: { access: SIGNED_IN },
      schema: {
        tags: ["search"],
        security: [{ bearer: [] }],
        summary: "Search every resource and module I may see",
        description:
          "Records whose searched fields (`x-searchable`) contain the text, in every resource and module the signed-in person has, grouped by resource; an exact name first, then names starting with the text.",
        querystring,
        response: { 200: response },
      },
    },
    (request) => {
      const q = request.query.q.trim();
      if (!q) throw badRequest("Invalid search", [{ field: "q", message: "Search text must not be blank" }]);
      return service.search(principalOf(request), q, request.query.limit);
    },
  );
}
