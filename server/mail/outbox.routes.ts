/** The mail outbox, readable by admins (what was or would have been sent). */
import type { FastifyInstance } from "fastify";
import type { Selectable } from "kysely";
import { MODULE_IDS } from "../../resources/modules";
import type { OutboxMail } from "../../schemas/auth";
import { moduleAccess } from "../auth/access";
import type { AppContext } from "../context";
import type { MailOutboxTable } from "../db/types";
import { notFound } from "../http/errors";
import { type ListQuery, listPage, listQuerySchema } from "../http/list-query";
import { scrubDeadLinks, visibleBody } from "./outbox-secrets";

/** Only admins read mail: the outbox holds live set-password links (without SMTP). */
const ADMIN = moduleAccess(MODULE_IDS.users, { adminOnly: true });

export async function outboxRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Querystring: ListQuery }>(
    "/api/outbox",
    {
      config: { access: ADMIN },
      schema: {
        tags: ["mail"],
        security: [{ bearer: [] }],
        summary: "Mail outbox",
        querystring: listQuerySchema,
      },
    },
    async (request) => {
      await scrubDeadLinks(ctx.db);
      const q = ctx.db.selectFrom("mail_outbox as m").selectAll("m");
      const { rows, total } = await listPage(ctx.db, q, request.query, {
        search: ["to_address", "subject"],
        table: "m",
        defaultSort: "-created_at",
        sortFields: ["created_at", "to_address", "subject", "status"],
        filterFields: { status: "string", to_address: "string" },
      });
      return { data: rows.map((r) => toMail(r)), total };
    },
  );

  app.get<{ Params: { id: string } }>(
    "/api/outbox/:id",
    {
      config: { access: ADMIN },
      schema: {
        tags: ["mail"],
        security: [{ bearer: [] }],
        summary: "One mail of the outbox",
        params: {
          type: "object",
          required: ["id"],
          properties: { id: { type: "string", format: "uuid" } },
        },
      },
    },
    async (request) => {
      await scrubDeadLinks(ctx.db);
      const row = await ctx.db
        .selectFrom("mail_outbox")
        .selectAll()
        .where("id", "=", request.params.id)
        .executeTakeFirst();
      if (!row) throw notFound("Mail not found");
      return toMail(row);
    },
  );
}

/** The answer shape; a link that died since the scrub above is redacted all the same. */
function toMail(r: Selectable<MailOutboxTable>, now = new Date()): OutboxMail {
  return {
    id: r.id,
    to: r.to_address,
    cc: typeof r.cc === "string" ? JSON.parse(r.cc) : (r.cc ?? []),
    bcc: typeof r.bcc === "string" ? JSON.parse(r.bcc) : (r.bcc ?? []),
    replyTo: r.reply_to ?? null,
    attachments: (typeof r.attachments === "string" ? JSON.parse(r.attachments) : (r.attachments ?? [])).map(
      (a: { filename: string }) => a.filename,
    ),
    subject: r.subject,
    text: visibleBody(r.text_body, r, now),
    html: r.html_body === null ? null : visibleBody(r.html_body, r, now),
    status: r.status as OutboxMail["status"],
    created_at: new Date(r.created_at).toISOString(),
    sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
    error: r.error,
  };
}
