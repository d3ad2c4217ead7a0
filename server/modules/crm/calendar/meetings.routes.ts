/**
 * Meetings with clients, under `/crm/meetings`: book (the event in my calendar, the invitation
 * mailed), list mine (`clientId`, `upcoming=true` for a client page's coming meetings), read
 * one, cancel. A user sees and cancels only their own.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../../resources/modules";
import {
  type BookMeetingRequest,
  bookMeetingBodySchema,
  MEETING_STATUSES,
} from "../../../../schemas/crm-calendar";
import { moduleAccess, principalOf } from "../../../auth/access";
import { listQuerySchema } from "../../../http/list-query";
import { idParams, uuid } from "../../../http/route-params";
import type { MeetingListQuery, Meetings } from "./meetings.service";

const config = { access: moduleAccess(MODULE_IDS.crm) };
const security = [{ bearer: [] }];
const tags = ["crm meetings"];

const meetingSchema = {
  type: "object",
  properties: {
    id: uuid,
    clientId: uuid,
    clientName: { type: "string" },
    title: { type: "string" },
    description: { type: ["string", "null"] },
    location: { type: ["string", "null"] },
    startsAt: { type: "string", format: "date-time" },
    endsAt: { type: "string", format: "date-time" },
    timeZone: { type: "string" },
    attendeeEmail: { type: "string" },
    status: { type: "string", enum: MEETING_STATUSES },
    uid: { type: "string" },
    eventUrl: { type: "string" },
    createdAt: { type: "string", format: "date-time" },
    cancelledAt: { type: ["string", "null"], format: "date-time" },
  },
} as const;

export async function meetingRoutes(app: FastifyInstance, meetings: Meetings) {
  app.post<{ Body: BookMeetingRequest }>(
    "/crm/meetings",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Book a meeting with a client: an event in my calendar, an invitation mailed to the client",
        body: bookMeetingBodySchema,
        response: { 201: meetingSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await meetings.book(principalOf(request).userId, request.body)),
  );

  app.get<{ Querystring: MeetingListQuery }>(
    "/crm/meetings",
    {
      config,
      schema: {
        tags,
        security,
        summary: "My meetings (list contract); clientId and upcoming=true narrow them",
        querystring: {
          ...listQuerySchema,
          properties: {
            ...listQuerySchema.properties,
            clientId: { ...uuid, title: "Client" },
            upcoming: { type: "boolean", title: "Upcoming" },
          },
        },
        response: {
          200: {
            type: "object",
            properties: { data: { type: "array", items: meetingSchema }, total: { type: "integer" } },
          },
        },
      },
    },
    async (request) => meetings.list(principalOf(request).userId, request.query),
  );

  app.get<{ Params: { id: string } }>(
    "/crm/meetings/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "One of my meetings",
        params: idParams,
        response: { 200: meetingSchema },
      },
    },
    async (request) => meetings.get(principalOf(request).userId, request.params.id),
  );

  app.post<{ Params: { id: string } }>(
    "/crm/meetings/:id/cancel",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Cancel my meeting: the event leaves my calendar, the client is sent a cancellation",
        params: idParams,
        response: { 200: meetingSchema },
      },
    },
    async (request) => meetings.cancel(principalOf(request).userId, request.params.id),
  );
}
