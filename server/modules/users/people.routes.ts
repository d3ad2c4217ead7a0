/** `GET /api/people`: the people a signed-in user may pick as an owner or assignee (people.ts). */
import type { FastifyInstance } from "fastify";
import { SIGNED_IN } from "../../auth/access";
import type { AppContext } from "../../context";
import { type ListQuery, listQuerySchema } from "../../http/list-query";
import { listPeople } from "./people";

const person = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    name: { type: "string" },
    email: { type: "string", format: "email" },
  },
} as const;

export async function peopleRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Querystring: ListQuery }>(
    "/api/people",
    {
      config: { access: SIGNED_IN },
      schema: {
        tags: ["users"],
        security: [{ bearer: [] }],
        summary: "Active users to pick as an owner or assignee (list contract)",
        description:
          "Any signed-in user. `q` searches name and email; `filters` on id (`in` for several), name or email; `sort` by name or email.",
        querystring: listQuerySchema,
        response: {
          200: {
            type: "object",
            properties: {
              data: { type: "array", items: person },
              total: { type: "integer" },
              totalExact: { type: "boolean" },
            },
          },
        },
      },
    },
    (request) => listPeople(ctx, request.query),
  );
}
