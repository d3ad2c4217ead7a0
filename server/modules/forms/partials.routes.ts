/**
 * A form's partial answers for its admins (issue 29), apart from its submissions: the list
 * (newest save first; `page`, `pageSize`), the CSV export, and delete one. A partial answer is
 * what a visitor answered so far and has not sent; it is deleted when they send the form, or
 * by the recurring sweep once the form's resume window has passed since its last save
 * (partial-store.ts). The resume token never leaves the server, not even as its hash.
 */
import { stringify } from "csv-stringify/sync";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import { answerText } from "../../../schemas/form-answers";
import { answers as answerable, type FormDefinition } from "../../../schemas/form-definition";
import { formPages } from "../../../schemas/form-pages";
import { moduleAccess } from "../../auth/access";
import type { AppContext } from "../../context";
import { notFound } from "../../http/errors";
import { uuid } from "../../http/route-params";
import { escapeFormula } from "../../resources/csv/cells";
import { BOM } from "../../resources/csv/export";
import type { AnyDb } from "../../resources/rules";
import type { FormsService } from "./forms.service";
import { parse } from "./submission-record";

const config = { access: moduleAccess(MODULE_IDS.forms) };
const security = [{ bearer: [] }];
const tags = ["forms"];
const formParams = { type: "object", required: ["id"], properties: { id: uuid } } as const;
const EXPORT_LIMIT = 10_000;
const iso = (v: unknown) => new Date(v as string).toISOString();

export async function partialsRoutes(app: FastifyInstance, ctx: AppContext, forms: FormsService) {
  const db = ctx.db as unknown as AnyDb;

  async function definitionOf(formId: string): Promise<FormDefinition | null> {
    const row = await db
      .selectFrom("form_definitions")
      .select(["draft", "published"])
      .where("form_id", "=", formId)
      .executeTakeFirst();
    return parse<FormDefinition | null>(row?.published ?? row?.draft ?? null);
  }

  const rowsOf = (formId: string) =>
    db
      .selectFrom("form_partials")
      .select([
        "id",
        "created_at",
        "updated_at",
        "expires_at",
        "page",
        "furthest",
        "answers",
        "tracking",
        "utm_source",
      ])
      .where("form_id", "=", formId)
      .where("expires_at", ">", sql<Date>`now()`);

  // biome-ignore lint/suspicious/noExplicitAny: a form_partials row.
  const toPartial = (r: any, pages: number) => ({
    id: r.id as string,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    expires_at: iso(r.expires_at),
    /** The page the visitor was on (1 for the first), of `pages`. */
    page: Number(r.page) + 1,
    pages,
    utm_source: r.utm_source as string,
    answers: parse<Record<string, unknown>>(r.answers),
    tracking: parse<Record<string, unknown>>(r.tracking),
  });

  app.get<{ Params: { id: string }; Querystring: { page?: number; pageSize?: number } }>(
    "/forms/forms/:id/partials",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A form's partial answers (answers kept as visitors go, not sent), newest first",
        params: formParams,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            page: { type: "integer", title: "Page", minimum: 1, maximum: 100_000, default: 1 },
            pageSize: { type: "integer", title: "Page size", minimum: 1, maximum: 100, default: 10 },
          },
        },
      },
    },
    async (request) => {
      await forms.form(request.params.id);
      const { page = 1, pageSize = 10 } = request.query;
      const def = await definitionOf(request.params.id);
      const pages = formPages(def?.fields ?? []).length;
      const [rows, total] = await Promise.all([
        rowsOf(request.params.id)
          .orderBy("updated_at", "desc")
          .orderBy("id")
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute(),
        db
          .selectFrom("form_partials")
          .select(sql<number>`count(*)::integer`.as("n"))
          .where("form_id", "=", request.params.id)
          .where("expires_at", ">", sql<Date>`now()`)
          .executeTakeFirstOrThrow(),
      ]);
      return { data: rows.map((r) => toPartial(r, pages)), total: total.n };
    },
  );

  app.get<{ Params: { id: string } }>(
    "/forms/forms/:id/partials/export.csv",
    {
      config,
      schema: { tags, security, summary: "A form's partial answers as CSV", params: formParams },
    },
    async (request, reply) => {
      const form = await forms.form(request.params.id);
      const def = await definitionOf(request.params.id);
      const fields = (def?.fields ?? []).filter(answerable);
      const pages = formPages(def?.fields ?? []).length;
      const rows = await rowsOf(request.params.id)
        .orderBy("updated_at", "desc")
        .limit(EXPORT_LIMIT)
        .execute();
      const header = [
        "Last saved",
        "Started",
        "Page",
        ...fields.map((f) => f.label),
        "utm_source",
        "Expires",
        "ID",
      ];
      const lines = rows.map((r) => {
        const p = toPartial(r, pages);
        return [
          p.updated_at,
          p.created_at,
          `${p.page} of ${pages}`,
          ...fields.map((f) => answerText(f, p.answers[f.id])),
          p.utm_source,
          p.expires_at,
          p.id,
        ].map((v) => escapeFormula(String(v)));
      });
      const name = `${form.slug}-partial-answers-${new Date().toISOString().slice(0, 10)}.csv`;
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${name}"`)
        .send(BOM + stringify([header, ...lines]));
    },
  );

  app.delete<{ Params: { id: string; pid: string } }>(
    "/forms/forms/:id/partials/:pid",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Delete one partial answer",
        params: { type: "object", required: ["id", "pid"], properties: { id: uuid, pid: uuid } },
      },
    },
    async (request, reply) => {
      await forms.form(request.params.id);
      const gone = await db
        .deleteFrom("form_partials")
        .where("form_id", "=", request.params.id)
        .where("id", "=", request.params.pid)
        .executeTakeFirst();
      if (!Number(gone.numDeletedRows)) throw notFound("No such partial answer");
      return reply.status(204).send();
    },
  );
}
