/** `GET /api/security-events`: the security event log, for admins only. */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../resources/modules";
import { SECURITY_EVENT_TYPES } from "../../schemas/security-events";
import { moduleAccess } from "../auth/access";
import type { AppContext } from "../context";
import { type ListQuery, listQuerySchema } from "../http/list-query";
import { listSecurityEvents } from "./events.list";

const nullableString = { type: ["string", "null"] } as const;

const eventSchema = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    created_at: { type: "string", format: "date-time" },
    type: { type: "string", enum: [...SECURITY_EVENT_TYPES] },
    user_id: nullableString,
    user_email: nullableString,
    actor_id: nullableString,
    actor_email: nullableString,
    email: nullableString,
    ip: nullableString,
    user_agent: nullableString,
    details: { type: "object", additionalProperties: true },
  },
} as const;

export async function securityEventRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Querystring: ListQuery }>(
    "/api/security-events",
    {
      config: { access: moduleAccess(MODULE_IDS.users, { adminOnly: true }) },
      schema: {
        tags: ["security"],
        security: [{ bearer: [] }],
        summary: "Security event log (admins): sign-ins, lockouts, resets, grant and role changes…",
        description:
          "Newest first. Filters (Refine CrudFilters) on type, user_id, actor_id, email, ip and created_at " +
          "(e.g. `between` two dates); `q` searches email, IP, user agent and type.",
        querystring: listQuerySchema,
        response: {
          200: {
            type: "object",
            properties: { data: { type: "array", items: eventSchema }, total: { type: "integer" } },
          },
        },
      },
    },
    (request) => listSecurityEvents(ctx, request.query),
  );
}
