/**
 * Email from the CRM (docs/crm-api.md, "Email"): `POST /crm/messages/email` sends one to a
 * client, `POST /crm/messages/email/preview` shows it filled for them, `GET /crm/messages` lists
 * a client's messages (email and SMS), `GET /crm/messages/{id}` reads one.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import {
  EMAIL_ATTACHMENTS_MAX,
  EMAIL_BODY_MAX,
  EMAIL_COPIES_MAX,
  EMAIL_SUBJECT_MAX,
  MESSAGE_DIRECTIONS,
  MESSAGE_STATUSES,
  type SendEmailRequest,
} from "../../../schemas/crm-messages";
import { MESSAGE_CHANNELS } from "../../../schemas/crm-templates";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { notFound } from "../../http/errors";
import { type ListQuery, listQuerySchema } from "../../http/list-query";
import { uuid } from "../../http/route-params";
import { previewEmail, sendEmail } from "./email.service";
import { getMessage, listMessages } from "./messages";

const config = { access: moduleAccess(MODULE_IDS.crm) };
const security = [{ bearer: [] }];
const tags = ["crm messages"];
const nullableUuid = { type: ["string", "null"], format: "uuid" } as const;

const addresses = (title: string) =>
  ({
    type: "array",
    title,
    items: { type: "string", format: "email", maxLength: 254 },
    maxItems: EMAIL_COPIES_MAX,
    uniqueItems: true,
  }) as const;

const subject = {
  type: "string",
  title: "Subject",
  minLength: 1,
  maxLength: EMAIL_SUBJECT_MAX,
  // One line: a header cannot hold a line break.
  pattern: "^[^\\r\\n]*\\S[^\\r\\n]*$",
  "x-patternMessage": "must be one line of text",
} as const;
const body = { type: "string", title: "Body", minLength: 1, maxLength: EMAIL_BODY_MAX } as const;

const sendBody = {
  type: "object",
  additionalProperties: false,
  required: ["clientId"],
  properties: {
    clientId: { ...uuid, title: "Client" },
    subject,
    body,
    templateId: { ...nullableUuid, title: "Template" },
    threadId: { ...nullableUuid, title: "Conversation" },
    assetIds: {
      type: "array",
      title: "Attachments",
      items: uuid,
      maxItems: EMAIL_ATTACHMENTS_MAX,
      uniqueItems: true,
    },
    cc: addresses("Cc"),
    bcc: addresses("Bcc"),
  },
} as const;

const previewBody = {
  type: "object",
  additionalProperties: false,
  required: ["clientId"],
  properties: {
    clientId: sendBody.properties.clientId,
    subject: { ...subject, minLength: 0, pattern: "^[^\\r\\n]*$" },
    body: { ...body, minLength: 0 },
    templateId: sendBody.properties.templateId,
  },
} as const;

const messageSchema = {
  type: "object",
  properties: {
    id: uuid,
    channel: { type: "string", enum: MESSAGE_CHANNELS },
    direction: { type: "string", enum: MESSAGE_DIRECTIONS },
    client_id: uuid,
    thread_id: nullableUuid,
    subject: { type: ["string", "null"] },
    body: { type: "string" },
    body_text: { type: ["string", "null"] },
    from: { type: "string" },
    to: { type: "string" },
    cc: { type: "array", items: { type: "string" } },
    bcc: { type: "array", items: { type: "string" } },
    status: { type: "string", enum: MESSAGE_STATUSES },
    error: { type: ["string", "null"] },
    template_id: nullableUuid,
    actor_id: nullableUuid,
    attachments: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string" },
          contentType: { type: "string" },
          size: { type: "integer" },
          assetId: uuid,
        },
      },
    },
    opens: { type: "integer", description: "Outgoing email: fetches of its tracking pixel" },
    opened_at: { type: ["string", "null"], format: "date-time" },
    clicks: { type: "integer", description: "Outgoing email: follows of its signed links" },
    clicked_at: { type: ["string", "null"], format: "date-time" },
    created_at: { type: "string", format: "date-time" },
  },
} as const;

const errorAnswers = {
  description: "Bad input (400, per field), no such client (404), client without email or consent (409)",
};

export async function emailRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post<{ Body: SendEmailRequest }>(
    "/crm/messages/email",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Send an email to a client",
        description: `Merge fields ({{client.name}}, {{user.name}}, {{client.<custom field>}} …) are filled for the client. ${errorAnswers.description}.`,
        body: sendBody,
        response: {
          201: {
            type: "object",
            properties: { message: messageSchema, replyTo: { type: "string" } },
          },
        },
      },
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      return reply.status(201).send(await sendEmail(ctx, request.body, userId));
    },
  );

  app.post<{ Body: Pick<SendEmailRequest, "clientId" | "subject" | "body" | "templateId"> }>(
    "/crm/messages/email/preview",
    {
      // Creates nothing; marked so a retried preview with a key answers the same.
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "An email as a client would get it (merge fields filled), without sending it",
        body: previewBody,
        response: {
          200: {
            type: "object",
            properties: { subject: { type: "string" }, html: { type: "string" }, text: { type: "string" } },
          },
        },
      },
    },
    async (request) => previewEmail(ctx, request.body, principalOf(request).userId),
  );

  app.get<{ Querystring: ListQuery & { clientId: string } }>(
    "/crm/messages",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A client's messages, email and SMS (list contract)",
        querystring: {
          ...listQuerySchema,
          required: ["clientId"],
          properties: { ...listQuerySchema.properties, clientId: { ...uuid, title: "Client" } },
        },
        response: {
          200: {
            type: "object",
            properties: { data: { type: "array", items: messageSchema }, total: { type: "integer" } },
          },
        },
      },
    },
    async (request) => {
      const { clientId, ...list } = request.query;
      return listMessages(ctx.db, clientId, list);
    },
  );

  app.get<{ Params: { id: string } }>(
    "/crm/messages/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "One message",
        params: { type: "object", required: ["id"], properties: { id: uuid } },
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const message = await getMessage(ctx.db, request.params.id);
      if (!message) throw notFound("Message not found");
      return message;
    },
  );
}
