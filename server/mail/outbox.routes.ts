/** The mail outbox, readable by admins (what was or would have been sent). */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../resources/modules";
import type { OutboxMail } from "../../schemas/auth";
import { moduleAccess } from "../auth/access";
import type { AppContext } from "../context";
import { type ListQuery, listPage, listQuerySchema } from "../http/list-query";

export async function outboxRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Querystring: ListQuery }>(
    "/api/outbox",
    {
      config: { access: moduleAccess(MODULE_IDS.users, { adminOnly: true }) },
      schema: {
        tags: ["mail"],
        security: [{ bearer: [] }],
        summary: "Mail outbox",
        querystring: listQuerySchema,
      },
    },
    async (request) => {
      const q = ctx.db.selectFrom("mail_outbox as m").selectAll("m");
      const { rows, total } = await listPage(ctx.db, q, request.query, {
        search: ["to_address", "subject"],
        table: "m",
        defaultSort: "-created_at",
        sortFields: ["created_at", "to_address", "subject", "status"],
        filterFields: { status: "string", to_address: "string" },
      });
      const data: OutboxMail[] = rows.map((r) => ({
        id: r.id,
        to: r.to_address,
        subject: r.subject,
        text: r.text_body,
        status: r.status as OutboxMail["status"],
        created_at: new Date(r.created_at).toISOString(),
        sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
        error: r.error,
      }));
      return { data, total };
    },
  );
}
