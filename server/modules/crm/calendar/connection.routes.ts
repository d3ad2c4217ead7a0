/**
 * The signed-in user's calendar connection (spec §3 `calendarAuth`), under `/crm/calendar`:
 * read it, connect or re-authorise (checked before it is saved), pick another calendar, check
 * it again, disconnect. Each user has their own; the password is never answered.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../../resources/modules";
import {
  CONNECTION_STATUSES,
  type ConnectCalendarRequest,
  chooseCalendarBodySchema,
  connectCalendarBodySchema,
} from "../../../../schemas/crm-calendar";
import { moduleAccess, principalOf } from "../../../auth/access";
import type { CalendarConnections } from "./connection.service";

const config = { access: moduleAccess(MODULE_IDS.crm) };
const security = [{ bearer: [] }];
const tags = ["crm calendar"];
const PATH = "/crm/calendar/connection";

const calendarSchema = {
  type: "object",
  properties: { url: { type: "string" }, name: { type: "string" }, color: { type: ["string", "null"] } },
} as const;

const connectionSchema = {
  type: "object",
  properties: {
    status: { type: "string", enum: [...CONNECTION_STATUSES, "none"] },
    serverUrl: { type: ["string", "null"] },
    username: { type: ["string", "null"] },
    calendarUrl: { type: ["string", "null"] },
    calendarName: { type: ["string", "null"] },
    calendars: { type: "array", items: calendarSchema },
    lastCheckedAt: { type: ["string", "null"], format: "date-time" },
    lastError: { type: ["string", "null"] },
    connectedAt: { type: ["string", "null"], format: "date-time" },
  },
} as const;

export async function connectionRoutes(app: FastifyInstance, connections: CalendarConnections) {
  const response = { 200: connectionSchema };

  app.get(
    PATH,
    {
      config,
      schema: {
        tags,
        security,
        summary: "My calendar connection (status none when there is none)",
        response,
      },
    },
    async (request) => connections.get(principalOf(request).userId),
  );

  app.put<{ Body: ConnectCalendarRequest }>(
    PATH,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Connect my CalDAV calendar, or re-authorise it: checked with the server before it is saved",
        body: connectCalendarBodySchema,
        response,
      },
    },
    async (request) => connections.connect(principalOf(request).userId, request.body),
  );

  app.patch<{ Body: { calendarUrl: string } }>(
    PATH,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Book meetings into another of my account's calendars",
        body: chooseCalendarBodySchema,
        response,
      },
    },
    async (request) => connections.choose(principalOf(request).userId, request.body.calendarUrl),
  );

  app.post(
    `${PATH}/test`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Check my calendar connection again (the answer says how it went)",
        response,
      },
    },
    async (request) => connections.test(principalOf(request).userId),
  );

  app.delete(
    PATH,
    { config, schema: { tags, security, summary: "Disconnect my calendar (its password is forgotten)" } },
    async (request, reply) => {
      await connections.disconnect(principalOf(request).userId);
      return reply.status(204).send();
    },
  );
}
