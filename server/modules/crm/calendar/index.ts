/**
 * The CRM's calendar (issue 16): each user's CalDAV connection and the meetings they book with
 * clients. See docs/crm-api.md (Calendar).
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../../context";
import { connectionRoutes } from "./connection.routes";
import { CalendarConnections } from "./connection.service";
import { meetingRoutes } from "./meetings.routes";
import { Meetings } from "./meetings.service";

export async function calendarRoutes(app: FastifyInstance, ctx: AppContext) {
  const connections = new CalendarConnections(ctx);
  await connectionRoutes(app, connections);
  await meetingRoutes(app, new Meetings(ctx, connections));
}
