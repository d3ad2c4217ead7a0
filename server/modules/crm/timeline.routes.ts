/**
 * A client's timeline and notes: `GET /crm/clients/{id}/timeline` (newest first, filter by
 * kind, cursor paging), `POST /crm/clients/{id}/notes`, `DELETE /crm/clients/{id}/notes/{noteId}`
 * (the note's author or an admin).
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { TIMELINE_KINDS, type TimelineKind } from "../../../schemas/crm";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { forbidden, notFound } from "../../http/errors";
import { uuid } from "../../http/route-params";
import { addTimeline, listTimeline, timelineChanged } from "./timeline";

const config = { access: moduleAccess(MODULE_IDS.crm) };
const security = [{ bearer: [] }];
const tags = ["crm timeline"];
const clientParams = { type: "object", required: ["id"], properties: { id: uuid } } as const;

const entrySchema = {
  type: "object",
  properties: {
    id: uuid,
    client_id: uuid,
    kind: { type: "string", enum: TIMELINE_KINDS },
    occurred_at: { type: "string", format: "date-time" },
    actor_id: { type: ["string", "null"], format: "uuid" },
    title: { type: "string" },
    body: { type: ["string", "null"] },
    data: { type: "object", additionalProperties: true },
    ref_id: { type: ["string", "null"], format: "uuid" },
  },
} as const;

export async function timelineRoutes(app: FastifyInstance, ctx: AppContext) {
  const clientExists = async (id: string) => {
    const row = await ctx.db.selectFrom("clients").select("id").where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("Client not found");
  };

  app.get<{ Params: { id: string }; Querystring: { kind?: TimelineKind[]; before?: string; limit: number } }>(
    "/crm/clients/:id/timeline",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A client's timeline, newest first",
        params: clientParams,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            kind: {
              type: "array",
              title: "Kind",
              items: { type: "string", enum: TIMELINE_KINDS },
              maxItems: 20,
            },
            before: {
              type: "string",
              title: "Cursor",
              maxLength: 80,
              pattern: "^\\d{4}-\\d{2}-\\d{2}T[0-9:.]+Z\\|[0-9a-fA-F-]{36}$",
              "x-patternMessage": "must be the `next` cursor of the previous page",
            },
            limit: { type: "integer", title: "Limit", minimum: 1, maximum: 100, default: 30 },
          },
        },
        response: {
          200: {
            type: "object",
            properties: { data: { type: "array", items: entrySchema }, next: { type: ["string", "null"] } },
          },
        },
      },
    },
    async (request) => {
      await clientExists(request.params.id);
      const { kind, before, limit } = request.query;
      return listTimeline(ctx.db, request.params.id, { kinds: kind, before, limit });
    },
  );

  app.post<{ Params: { id: string }; Body: { body: string } }>(
    "/crm/clients/:id/notes",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Add a note to a client's timeline",
        params: clientParams,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["body"],
          properties: {
            body: { type: "string", title: "Note", minLength: 1, maxLength: 10000, pattern: "\\S" },
          },
        },
        response: { 201: entrySchema },
      },
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const text = request.body.body.trim();
      const entry = await ctx.db.transaction().execute(async (trx) => {
        await trx
          .selectFrom("clients")
          .select("id")
          .where("id", "=", request.params.id)
          .forUpdate()
          .executeTakeFirst()
          .then((r) => {
            if (!r) throw notFound("Client not found");
          });
        const firstLine = text.split("\n")[0];
        await addTimeline(trx, [
          {
            clientId: request.params.id,
            kind: "note",
            title: firstLine.length > 120 ? `${firstLine.slice(0, 117)}...` : firstLine,
            body: text,
            actorId: userId,
          },
        ]);
        return trx
          .selectFrom("crm_timeline")
          .selectAll()
          .where("client_id", "=", request.params.id)
          .where("kind", "=", "note")
          .orderBy("occurred_at", "desc")
          .orderBy("id", "desc")
          .limit(1)
          .executeTakeFirstOrThrow();
      });
      timelineChanged(ctx, [request.params.id], userId);
      return reply.status(201).send({ ...entry, occurred_at: new Date(entry.occurred_at).toISOString() });
    },
  );

  app.delete<{ Params: { id: string; noteId: string } }>(
    "/crm/clients/:id/notes/:noteId",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Delete a note (its author or an admin)",
        params: { type: "object", required: ["id", "noteId"], properties: { id: uuid, noteId: uuid } },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const note = await ctx.db
        .selectFrom("crm_timeline")
        .select(["id", "actor_id"])
        .where("id", "=", request.params.noteId)
        .where("client_id", "=", request.params.id)
        .where("kind", "=", "note")
        .executeTakeFirst();
      if (!note) throw notFound("Note not found");
      if (note.actor_id !== principal.userId && !principal.isAdmin)
        throw forbidden("Only the note's author or an admin may delete it");
      await ctx.db.deleteFrom("crm_timeline").where("id", "=", note.id).execute();
      timelineChanged(ctx, [request.params.id], principal.userId);
      return reply.status(204).send();
    },
  );
}
