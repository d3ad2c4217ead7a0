/**
 * A form's insights for its admins: views, starts and submissions per day and per utm_source
 * (`/stats`, the insights charts), and the funnel (`/funnel`): views, starts, each page reached
 * and completions over a date range, for one utm_source or all, with the drop-off between each
 * step and the next. Both read the one per-day counter, `form_stats`: views are counted by
 * view-counter.ts, starts and pages reached with each partial answer (partial-store.ts),
 * submissions with each submission (submission-writer.ts).
 */
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import type { FormDefinition } from "../../../schemas/form-definition";
import { formPages } from "../../../schemas/form-pages";
import { moduleAccess } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest } from "../../http/errors";
import { uuid } from "../../http/route-params";
import type { AnyDb } from "../../resources/rules";
import type { FormsService } from "./forms.service";
import { parse } from "./submission-record";

const config = { access: moduleAccess(MODULE_IDS.forms) };
const security = [{ bearer: [] }];
const tags = ["forms"];
const formParams = { type: "object", required: ["id"], properties: { id: uuid } } as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
/** The longest range the funnel sums over. */
const MAX_FUNNEL_DAYS = 366;

export interface FunnelStep {
  /** `views`, `starts`, `page-2`, `page-3`, …, `completions`. */
  key: string;
  label: string;
  count: number;
  /** How many of the step before did not come to this one (null for the first step). */
  dropOff: number | null;
  /** dropOff over the step before's count, 0 to 1 (null when that count is 0 or for the first). */
  dropOffRate: number | null;
}

/**
 * The funnel's steps from the counts: views, starts, each page after the first reached, and
 * completions, each with its drop-off from the step before.
 *
 * @example
 * funnelSteps({ views: 10, starts: 6, reached: [4], completions: 3 }, ["", "Details"]);
 * // views 10; starts 6 (drop-off 4, 0.4); page-2 "Page 2: Details" 4 (2); completions 3 (1)
 */
export function funnelSteps(
  counts: { views: number; starts: number; reached: number[]; completions: number },
  titles: readonly string[],
): FunnelStep[] {
  const raw = [
    { key: "views", label: "Viewed", count: counts.views },
    { key: "starts", label: "Started", count: counts.starts },
    ...titles.slice(1).map((title, i) => ({
      key: `page-${i + 2}`,
      label: title ? `Page ${i + 2}: ${title}` : `Page ${i + 2}`,
      count: counts.reached[i] ?? 0,
    })),
    { key: "completions", label: "Completed", count: counts.completions },
  ];
  return raw.map((step, i) => {
    if (i === 0) return { ...step, dropOff: null, dropOffRate: null };
    const before = raw[i - 1].count;
    const dropOff = Math.max(0, before - step.count);
    return { ...step, dropOff, dropOffRate: before > 0 ? dropOff / before : null };
  });
}

export async function insightsRoutes(app: FastifyInstance, ctx: AppContext, forms: FormsService) {
  const db = ctx.db as unknown as AnyDb;

  app.get<{ Params: { id: string }; Querystring: { days?: number } }>(
    "/forms/forms/:id/stats",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Views, starts and submissions of a form per day and per utm_source",
        params: formParams,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: { days: { type: "integer", title: "Days", minimum: 1, maximum: 366, default: 30 } },
        },
      },
    },
    async (request) => {
      await forms.form(request.params.id);
      const days = request.query.days ?? 30;
      const since = sql<string>`current_date - ${days - 1}::integer`;
      const perDay = await db
        .selectFrom("form_stats")
        .select([
          sql<string>`to_char(day, 'YYYY-MM-DD')`.as("day"),
          sql<number>`sum(views)::integer`.as("views"),
          sql<number>`sum(submissions)::integer`.as("submissions"),
          sql<number>`sum(starts)::integer`.as("starts"),
        ])
        .where("form_id", "=", request.params.id)
        .where("day", ">=", since)
        .groupBy("day")
        .execute();
      const bySource = await db
        .selectFrom("form_stats")
        .select([
          "utm_source as source",
          sql<number>`sum(views)::integer`.as("views"),
          sql<number>`sum(submissions)::integer`.as("submissions"),
        ])
        .where("form_id", "=", request.params.id)
        .where("day", ">=", since)
        .groupBy("utm_source")
        .orderBy(sql`sum(submissions)`, "desc")
        .orderBy(sql`sum(views)`, "desc")
        .limit(50)
        .execute();
      const today = await db
        .selectNoFrom(sql<string>`to_char(current_date, 'YYYY-MM-DD')`.as("today"))
        .executeTakeFirstOrThrow();
      const found = new Map(perDay.map((d) => [d.day, d]));
      const end = new Date(`${today.today}T00:00:00Z`);
      const series = Array.from({ length: days }, (_, i) => {
        const day = new Date(end.getTime() - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10);
        const d = found.get(day);
        return { day, views: d?.views ?? 0, starts: d?.starts ?? 0, submissions: d?.submissions ?? 0 };
      });
      return { days: series, sources: bySource };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { from?: string; to?: string; source?: string } }>(
    "/forms/forms/:id/funnel",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A form's funnel over days: views, starts, each page reached, completions, drop-offs",
        params: formParams,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            from: { type: "string", title: "From", format: "date" },
            to: { type: "string", title: "To", format: "date" },
            source: { type: "string", title: "Source (utm_source)", maxLength: 200 },
          },
        },
      },
    },
    async (request) => {
      await forms.form(request.params.id);
      const today = (
        await db
          .selectNoFrom(sql<string>`to_char(current_date, 'YYYY-MM-DD')`.as("today"))
          .executeTakeFirstOrThrow()
      ).today;
      const to = request.query.to ?? today;
      const from =
        request.query.from ??
        new Date(new Date(`${to}T00:00:00Z`).getTime() - 29 * DAY_MS).toISOString().slice(0, 10);
      if (!DAY.test(from) || !DAY.test(to)) throw badRequest("Dates are written YYYY-MM-DD");
      const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
      if (span < 1)
        throw badRequest("The range ends before it starts", [
          { field: "to", message: "To must be on or after From" },
        ]);
      if (span > MAX_FUNNEL_DAYS)
        throw badRequest(`The range is at most ${MAX_FUNNEL_DAYS} days`, [
          { field: "from", message: `The range is at most ${MAX_FUNNEL_DAYS} days` },
        ]);
      const source = request.query.source;
      let rows = db
        .selectFrom("form_stats")
        .where("form_id", "=", request.params.id)
        .where("day", ">=", sql<string>`${from}::date`)
        .where("day", "<=", sql<string>`${to}::date`);
      if (source !== undefined) rows = rows.where("utm_source", "=", source);
      const totals = await rows
        .select([
          sql<number>`coalesce(sum(views), 0)::integer`.as("views"),
          sql<number>`coalesce(sum(starts), 0)::integer`.as("starts"),
          sql<number>`coalesce(sum(submissions), 0)::integer`.as("completions"),
        ])
        .executeTakeFirstOrThrow();
      // reached[k] of every row, summed position by position.
      const reached = await rows
        .innerJoin(sql<{ k: number }>`generate_series(1, cardinality(form_stats.reached))`.as("k"), (join) =>
          join.onTrue(),
        )
        .select([sql<number>`k`.as("k"), sql<number>`sum(form_stats.reached[k])::integer`.as("n")])
        .groupBy(sql`k`)
        .execute();
      const bySources = await db
        .selectFrom("form_stats")
        .where("form_id", "=", request.params.id)
        .where("day", ">=", sql<string>`${from}::date`)
        .where("day", "<=", sql<string>`${to}::date`)
        .select([
          "utm_source as source",
          sql<number>`sum(views)::integer`.as("views"),
          sql<number>`sum(starts)::integer`.as("starts"),
          sql<number>`sum(submissions)::integer`.as("completions"),
        ])
        .groupBy("utm_source")
        .orderBy(sql`sum(views) + sum(starts) + sum(submissions)`, "desc")
        .limit(50)
        .execute();
      const definition = await db
        .selectFrom("form_definitions")
        .select(["draft", "published"])
        .where("form_id", "=", request.params.id)
        .executeTakeFirst();
      const def = parse<FormDefinition | null>(definition?.published ?? definition?.draft ?? null);
      const titles = formPages(def?.fields ?? []).map((p) => p.title);
      const perPage: number[] = [];
      for (const r of reached) perPage[Number(r.k) - 1] = Number(r.n);
      const counts = { ...totals, reached: titles.slice(1).map((_, i) => perPage[i] ?? 0) };
      return {
        from,
        to,
        source: source ?? null,
        pages: titles.length,
        steps: funnelSteps(counts, titles),
        sources: bySources.map((r) => ({ ...r, source: r.source })),
      };
    },
  );
}
