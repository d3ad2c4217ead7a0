/**
 * `/api/notifications`: the signed-in user's own notifications (the header's bell) and their
 * mail preferences. Signed in is the rule; each route reads and changes the caller's rows of
 * the modules they hold, and no one else's (another user's id is a 404, like a missing one).
 */
import type { FastifyInstance } from "fastify";
import {
  NOTIFICATION_KINDS,
  NOTIFICATIONS_PAGE_SIZE_MAX,
  type NotificationPreferencesWrite,
} from "../../schemas/notifications";
import { principalOf, SIGNED_IN } from "../auth/access";
import type { AppContext } from "../context";
import { listQuerySchema } from "../http/list-query";
import {
  deleteNotification,
  type InboxQuery,
  listNotifications,
  markAllRead,
  markRead,
  unreadCount,
} from "./inbox";
import { getMailPreferences, putMailPreferences } from "./mail-preferences";

const tags = ["notifications"];
const security = [{ bearer: [] }];
const config = { access: SIGNED_IN };

const idParams = {
  type: "object",
  required: ["id"],
  additionalProperties: false,
  properties: { id: { type: "string", format: "uuid", title: "Notification ID" } },
} as const;

const notificationSchema = {
  type: "object",
  required: ["id", "kind", "moduleID", "title", "body", "link", "data", "created_at", "read_at"],
  properties: {
    id: { type: "string", format: "uuid" },
    kind: { type: "string", enum: Object.keys(NOTIFICATION_KINDS) },
    moduleID: { type: "integer", description: "The module it belongs to; only its users see it." },
    title: { type: "string" },
    body: { type: "string" },
    link: { type: ["string", "null"], description: "A path of the admin app, under /manage." },
    data: { type: "object", additionalProperties: true },
    created_at: { type: "string", format: "date-time" },
    read_at: { type: ["string", "null"], format: "date-time" },
  },
} as const;

const listQuery = {
  ...listQuerySchema,
  properties: {
    ...listQuerySchema.properties,
    pageSize: { ...listQuerySchema.properties.pageSize, maximum: NOTIFICATIONS_PAGE_SIZE_MAX },
    unread: { type: "boolean", title: "Unread", description: "Only the unread ones." },
  },
} as const;

const preferencesSchema = {
  type: "object",
  required: ["kinds"],
  properties: {
    kinds: {
      type: "array",
      items: {
        type: "object",
        required: ["kind", "label", "description", "mail"],
        properties: {
          kind: { type: "string" },
          label: { type: "string" },
          description: { type: "string" },
          mail: { type: "boolean" },
        },
      },
    },
  },
} as const;

const preferencesBody = {
  type: "object",
  required: ["mail"],
  additionalProperties: false,
  properties: {
    mail: {
      type: "object",
      title: "Mail",
      description: "Kind → whether to get it by mail too; kinds left out keep their setting.",
      additionalProperties: false,
      properties: Object.fromEntries(
        Object.entries(NOTIFICATION_KINDS).map(([kind, def]) => [
          kind,
          { type: "boolean", title: def.label },
        ]),
      ),
    },
  },
} as const;

export async function notificationRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  app.get<{ Querystring: InboxQuery }>(
    "/api/notifications",
    {
      config,
      schema: {
        tags,
        security,
        summary: "My notifications, newest first (the list contract), with the unread count",
        querystring: listQuery,
        response: {
          200: {
            type: "object",
            required: ["data", "total", "unread"],
            properties: {
              data: { type: "array", items: notificationSchema },
              total: { type: "integer" },
              unread: { type: "integer" },
            },
          },
        },
      },
    },
    (request) => listNotifications(db, principalOf(request), request.query),
  );

  app.get(
    "/api/notifications/unread-count",
    {
      config,
      schema: {
        tags,
        security,
        summary: "How many of my notifications are unread (the bell's badge)",
        response: {
          200: { type: "object", required: ["unread"], properties: { unread: { type: "integer" } } },
        },
      },
    },
    async (request) => ({ unread: await unreadCount(db, principalOf(request)) }),
  );

  app.post<{ Params: { id: string } }>(
    "/api/notifications/:id/read",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Mark one of my notifications read",
        params: idParams,
        response: { 200: notificationSchema },
      },
    },
    async (request) => {
      const who = principalOf(request);
      const read = await markRead(db, who, request.params.id);
      ctx.notifications.tell(who.userId, { type: "read", ids: [read.id] });
      return read;
    },
  );

  app.post(
    "/api/notifications/read-all",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Mark all my notifications read",
        response: { 200: { type: "object", required: ["read"], properties: { read: { type: "integer" } } } },
      },
    },
    async (request) => {
      const who = principalOf(request);
      const read = await markAllRead(db, who);
      if (read) ctx.notifications.tell(who.userId, { type: "read", ids: "all" });
      return { read };
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/api/notifications/:id",
    { config, schema: { tags, security, summary: "Delete one of my notifications", params: idParams } },
    async (request, reply) => {
      const who = principalOf(request);
      await deleteNotification(db, who, request.params.id);
      ctx.notifications.tell(who.userId, { type: "deleted", ids: [request.params.id] });
      return reply.status(204).send();
    },
  );

  app.get(
    "/api/notifications/preferences",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Which kinds of my notifications also come by mail",
        response: { 200: preferencesSchema },
      },
    },
    (request) => getMailPreferences(ctx, principalOf(request)),
  );

  app.put<{ Body: NotificationPreferencesWrite }>(
    "/api/notifications/preferences",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Choose which kinds of my notifications also come by mail",
        body: preferencesBody,
        response: { 200: preferencesSchema },
      },
    },
    (request) => putMailPreferences(ctx, principalOf(request), request.body),
  );
}
