/**
 * A form's submissions for its admins (`/forms/forms/{id}/submissions`): the list contract over
 * the answers (one field per form field, read from `jsonb` as runtime-defined entities are,
 * server/entities/jsonb-fields.ts) and the tracking's utm columns, one submission, delete, the
 * CSV export (the counts behind the insights charts are in insights.routes.ts).
 */
import { Readable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { answerText } from "../../../schemas/form-answers";
import type { FormDefinition } from "../../../schemas/form-definition";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { StatementCache } from "../../db/statements";
import { notFound } from "../../http/errors";
import { type ListQuery, listPage, listQuerySchema } from "../../http/list-query";
import { uuid } from "../../http/route-params";
import { escapeFormula } from "../../resources/csv/cells";
import { BOM } from "../../resources/csv/export";
import type { AnyDb } from "../../resources/rules";
import { assetUrls } from "../../storage/serve";
import type { FormsService } from "./forms.service";
import { listShapeOf, parse, toSubmission } from "./submission-record";

const config = { access: moduleAccess(MODULE_IDS.forms) };
const security = [{ bearer: [] }];
const tags = ["forms"];
const formParams = { type: "object", required: ["id"], properties: { id: uuid } } as const;
const submissionParams = {
  type: "object",
  required: ["id", "sid"],
  properties: { id: uuid, sid: uuid },
} as const;

const EXPORT_PAGE = 200;
/** The columns a page of submissions reads: what submission-record.ts `toSubmission` uses. */
const LISTED_COLUMNS = ["t.id", "t.created_at", "t.version", "t.answers", "t.tracking"] as const;

export async function submissionRoutes(app: FastifyInstance, ctx: AppContext, forms: FormsService) {
  const db = ctx.db as unknown as AnyDb;
  /** The list's statements, kept per shape (list-query.ts `listPage`). */
  const statements = new StatementCache({ instantsAsText: true });

  /**
   * The definition whose fields the list reads: the published one, else the draft (kept until
   * a form changes: a list screen asks for its page again and again). 404 without the form.
   */
  async function definitionOf(formId: string): Promise<FormDefinition | null> {
    const { listed } = forms;
    const generation = listed.generation;
    let def = listed.get(formId);
    if (def === undefined) {
      await forms.form(formId);
      const row = await db
        .selectFrom("form_definitions")
        .select(["draft", "published"])
        .where("form_id", "=", formId)
        .executeTakeFirst();
      def = listed.keep(
        formId,
        parse<FormDefinition | null>(row?.published ?? row?.draft ?? null),
        generation,
      );
    }
    return def;
  }

  async function page(formId: string, query: ListQuery, unpaged = false, before?: Date) {
    const { fields, options } = listShapeOf(await definitionOf(formId));
    const base = () => {
      // Only what a listed submission is made of (toSubmission): the form's id, the UTM source
      // column and the idempotency key would be read and parsed on every row for nothing.
      let q = db.selectFrom("form_submissions as t").select(LISTED_COLUMNS).where("t.form_id", "=", formId);
      if (before) q = q.where("t.created_at", "<=", before);
      return q;
    };
    const result = await listPage(
      db,
      base,
      unpaged ? { ...query, page: query.page } : query,
      options,
      before ? undefined : { statements, key: "", params: [formId] },
    );
    return {
      fields,
      data: result.rows.map(toSubmission),
      total: result.total,
      totalExact: result.totalExact,
    };
  }

  app.get<{ Params: { id: string }; Querystring: ListQuery }>(
    "/forms/forms/:id/submissions",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A form's submissions (the list contract)",
        params: formParams,
        querystring: listQuerySchema,
      },
    },
    async (request) => {
      const { data, total, totalExact } = await page(request.params.id, request.query);
      return { data, total, ...(totalExact === false ? { totalExact } : {}) };
    },
  );

  app.get<{ Params: { id: string }; Querystring: Omit<ListQuery, "page" | "pageSize"> }>(
    "/forms/forms/:id/submissions/export.csv",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A form's submissions as CSV, filtered and searched as the list",
        params: formParams,
        querystring: {
          ...listQuerySchema,
          properties: {
            sort: listQuerySchema.properties.sort,
            filters: listQuerySchema.properties.filters,
            q: listQuerySchema.properties.q,
          },
        },
      },
    },
    async (request, reply) => {
      const form = await forms.form(request.params.id);
      const started = new Date();
      // The first page before answering, so a bad filter is a 400, not a broken download.
      const first = await page(
        request.params.id,
        { ...request.query, page: 1, pageSize: EXPORT_PAGE },
        false,
        started,
      );
      const header = [
        "Submitted",
        ...first.fields.map((f) => f.label),
        "utm_source",
        "utm_medium",
        "utm_campaign",
        "utm_term",
        "utm_content",
        "Referrer",
        "Landing page",
        "First-touch source",
        "User agent",
        "ID",
      ];
      const line = (s: ReturnType<typeof toSubmission>) => {
        const t = s.tracking as {
          parameters?: Record<string, string>;
          landingPage?: string;
          userAgent?: string;
          firstTouch?: { parameters?: Record<string, string> } | null;
        };
        const p = t.parameters ?? {};
        return [
          s.created_at,
          ...first.fields.map((f) => answerText(f, (s as Record<string, unknown>)[f.id])),
          p.utm_source ?? "",
          p.utm_medium ?? "",
          p.utm_campaign ?? "",
          p.utm_term ?? "",
          p.utm_content ?? "",
          s.referrer,
          t.landingPage ?? "",
          t.firstTouch?.parameters?.utm_source ?? "",
          t.userAgent ?? "",
          s.id,
        ].map((v) => escapeFormula(String(v)));
      };
      const id = request.params.id;
      const query = request.query;
      async function* text(): AsyncGenerator<string> {
        yield BOM + stringify([header]);
        let rows = first.data;
        for (let n = 1; rows.length; n++) {
          yield stringify(rows.map(line));
          if (rows.length < EXPORT_PAGE) break;
          rows = (await page(id, { ...query, page: n + 1, pageSize: EXPORT_PAGE }, false, started)).data;
        }
      }
      const name = `${form.slug}-submissions-${started.toISOString().slice(0, 10)}.csv`;
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${name}"`)
        .send(Readable.from(text()));
    },
  );

  app.get<{ Params: { id: string; sid: string } }>(
    "/forms/forms/:id/submissions/:sid",
    { config, schema: { tags, security, summary: "One submission", params: submissionParams } },
    async (request) => {
      await forms.form(request.params.id);
      const row = await db
        .selectFrom("form_submissions")
        .selectAll()
        .where("id", "=", request.params.sid)
        .where("form_id", "=", request.params.id)
        .executeTakeFirst();
      if (!row) throw notFound("Submission not found");
      const files = await db
        .selectFrom("form_files")
        .select(["token", "field_id", "file_name", "content_type", "size", "storage_key"])
        .where("submission_id", "=", row.id)
        .execute();
      return {
        ...toSubmission(row),
        files: files.map((f) => ({
          id: f.token,
          field: f.field_id,
          name: f.file_name,
          type: f.content_type,
          size: f.size,
          url: assetUrls(f.storage_key, f.content_type).url,
        })),
      };
    },
  );

  /** Deletes submissions of a form with their files; answers how many went. */
  async function remove(formId: string, ids: readonly string[], actorId: string): Promise<number> {
    const { gone, files } = await db.transaction().execute(async (trx) => {
      const gone = await trx
        .deleteFrom("form_submissions")
        .where("id", "in", ids)
        .where("form_id", "=", formId)
        .returning(["id"])
        .execute();
      if (!gone.length) return { gone, files: [] };
      const files = await trx
        .deleteFrom("form_files")
        .where(
          "submission_id",
          "in",
          gone.map((g) => g.id),
        )
        .returning(["storage_key"])
        .execute();
      return { gone, files };
    });
    if (files.length)
      await ctx.storage
        .delete(files.map((f) => f.storage_key))
        .catch((err) => ctx.log.warn({ err }, "form files not removed"));
    if (gone.length)
      ctx.events.publish({
        resource: `forms/${formId}/submissions`,
        moduleID: MODULE_IDS.forms,
        type: "deleted",
        ids: gone.map((g) => g.id),
        actorId,
      });
    return gone.length;
  }

  app.delete<{ Params: { id: string; sid: string } }>(
    "/forms/forms/:id/submissions/:sid",
    { config, schema: { tags, security, summary: "Delete a submission", params: submissionParams } },
    async (request, reply) => {
      await forms.form(request.params.id);
      if (!(await remove(request.params.id, [request.params.sid], principalOf(request).userId)))
        throw notFound("Submission not found");
      return reply.status(204).send();
    },
  );

  app.post<{ Params: { id: string }; Body: { ids: string[] } }>(
    "/forms/forms/:id/submissions/delete",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Delete several submissions; answers how many were deleted",
        params: formParams,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["ids"],
          properties: { ids: { type: "array", title: "IDs", minItems: 1, maxItems: 500, items: uuid } },
        },
      },
    },
    async (request) => {
      await forms.form(request.params.id);
      return {
        deleted: await remove(request.params.id, [...new Set(request.body.ids)], principalOf(request).userId),
      };
    },
  );
}
