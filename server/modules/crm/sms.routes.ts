/**
 * SMS from the CRM (docs/crm-api.md, "SMS"): `POST /crm/messages/sms` texts a client,
 * `GET /crm/sms/outbox` lists the SMS sent or kept (the SMS outbox screen), `GET /crm/sms/settings`
 * says whether SMS leave (a provider) or stay in the outbox.
 */
import type { FastifyInstance } from "fastify";
import type { Selectable } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import { SMS_MAX_LENGTH, SMS_STATUSES, type SmsMessage, type SmsSettings } from "../../../schemas/sms";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import type { CrmMessagesTable } from "../../db/types-crm-email";
import type { SmsMeta } from "../../db/types-crm-sms";
import { notFound } from "../../http/errors";
import { type ListQuery, listPage, listQuerySchema } from "../../http/list-query";
import { uuid } from "../../http/route-params";
import { type SendSmsRequest, sendSms } from "./sms.service";

const config = { access: moduleAccess(MODULE_IDS.crm) };
const security = [{ bearer: [] }];
const tags = ["crm sms"];
const nullable = (type: string) => ({ type: [type, "null"] }) as const;

const messageSchema = {
  type: "object",
  properties: {
    id: uuid,
    direction: { type: "string", enum: ["out", "in"] },
    clientId: uuid,
    clientName: nullable("string"),
    to: { type: "string" },
    from: { type: "string" },
    body: { type: "string" },
    status: { type: "string", enum: SMS_STATUSES },
    error: nullable("string"),
    errorCode: nullable("string"),
    segments: { type: "integer" },
    encoding: { type: "string", enum: ["GSM-7", "UCS-2"] },
    provider: nullable("string"),
    providerId: nullable("string"),
    attempts: { type: "integer" },
    templateId: nullable("string"),
    actorId: nullable("string"),
    created_at: { type: "string", format: "date-time" },
    sent_at: nullable("string"),
    delivered_at: nullable("string"),
  },
} as const;

type Row = Selectable<CrmMessagesTable> & { client_name?: string | null };

/** A stored SMS as the API answers it. */
export function toSmsMessage(r: Row): SmsMessage {
  const meta = (typeof r.meta === "string" ? JSON.parse(r.meta) : (r.meta ?? {})) as SmsMeta;
  return {
    id: r.id,
    direction: r.direction,
    clientId: r.client_id,
    clientName: r.client_name ?? null,
    to: r.to_address,
    from: r.from_address,
    body: r.body,
    status: r.status,
    error: r.error,
    errorCode: meta.errorCode ?? null,
    segments: meta.segments ?? 0,
    encoding: meta.encoding ?? "GSM-7",
    provider: meta.provider ?? null,
    providerId: r.message_id,
    attempts: meta.attempts ?? 0,
    templateId: r.template_id,
    actorId: r.actor_id,
    created_at: new Date(r.created_at).toISOString(),
    sent_at: meta.sentAt ?? null,
    delivered_at: meta.deliveredAt ?? null,
  };
}

export async function smsRoutes(app: FastifyInstance, ctx: AppContext) {
  const withClient = () =>
    ctx.db
      .selectFrom("crm_messages as m")
      .leftJoin("clients as c", "c.id", "m.client_id")
      .selectAll("m")
      .select("c.name as client_name")
      .where("m.channel", "=", "sms");

  app.post<{ Body: SendSmsRequest }>(
    "/crm/messages/sms",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Text a client",
        description:
          "Refused (409) when the client has no phone, has not agreed to SMS, or opted out (texted STOP). " +
          "Without a provider the SMS is kept in the SMS outbox (status `stored`).",
        body: {
          type: "object",
          additionalProperties: false,
          required: ["clientId"],
          properties: {
            clientId: { ...uuid, title: "Client" },
            body: {
              type: "string",
              title: "Message",
              minLength: 1,
              maxLength: SMS_MAX_LENGTH,
              pattern: "\\S",
              "x-patternMessage": "must not be blank",
            },
            templateId: { type: ["string", "null"], format: "uuid", title: "Template" },
          },
        },
        response: { 201: messageSchema },
      },
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const stored = await sendSms(ctx, request.body, userId);
      const row = await withClient().where("m.id", "=", stored.id).executeTakeFirstOrThrow();
      return reply.status(201).send(toSmsMessage(row));
    },
  );

  app.get<{ Querystring: ListQuery }>(
    "/crm/sms/outbox",
    {
      config,
      schema: {
        tags,
        security,
        summary: "SMS outbox: every SMS sent to clients or kept (list contract)",
        querystring: listQuerySchema,
        response: {
          200: {
            type: "object",
            properties: { data: { type: "array", items: messageSchema }, total: { type: "integer" } },
          },
        },
      },
    },
    async (request) => {
      const q = withClient().where("m.direction", "=", "out");
      const { rows, total } = await listPage(ctx.db, q, request.query, {
        table: "m",
        defaultSort: "-created_at",
        sortFields: ["created_at", "to_address", "status"],
        filterFields: { status: "string", to_address: "string", client_id: "uuid", created_at: "date" },
        search: ["to_address", "body"],
      });
      return { data: rows.map((r) => toSmsMessage(r as Row)), total };
    },
  );

  app.get<{ Params: { id: string } }>(
    "/crm/sms/outbox/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "One SMS",
        params: { type: "object", required: ["id"], properties: { id: uuid } },
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const row = await withClient().where("m.id", "=", request.params.id).executeTakeFirst();
      if (!row) throw notFound("SMS not found");
      return toSmsMessage(row);
    },
  );

  app.get(
    "/crm/sms/settings",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Where SMS go: a provider, or the SMS outbox",
        response: {
          200: {
            type: "object",
            properties: {
              provider: { type: "string" },
              sends: { type: "boolean" },
              from: nullable("string"),
            },
          },
        },
      },
    },
    async (): Promise<SmsSettings> => {
      const sms = ctx.config.sms;
      return {
        provider: ctx.sms.provider.name,
        sends: ctx.sms.provider.sends,
        from: sms.kind === "twilio" ? (sms.from ?? sms.messagingServiceSid) : null,
      };
    },
  );
}
