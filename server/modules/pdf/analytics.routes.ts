/**
 * The back-office analytics of the PDF library (spec §7: views, visitors and searched-words
 * calls, each answering a list): `POST /api/analytics/views | visitors | words` with
 * `{ pdfId?, from?, to? }` (dates, inclusive; default the last 30 days). Views and visitors
 * are per day and catalogue; words are the most searched, with counts. Analytics module.
 */
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import type { AnalyticsPoint, SearchedWord } from "../../../schemas/pdf-library";
import { moduleAccess } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest } from "../../http/errors";

interface RangeBody {
  pdfId?: string;
  from?: string;
  to?: string;
}

const body = {
  type: "object",
  additionalProperties: false,
  properties: {
    pdfId: { type: "string", format: "uuid" },
    from: { type: "string", format: "date" },
    to: { type: "string", format: "date" },
  },
} as const;

const DAY = 24 * 60 * 60 * 1000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The range as [from, to) timestamps; `to` is inclusive as a date. At most a year and a bit. */
export function rangeOf(input: RangeBody, now = new Date()): { from: Date; until: Date } {
  const to = input.to ? new Date(`${input.to}T00:00:00Z`) : new Date(`${isoDay(now)}T00:00:00Z`);
  const from = input.from ? new Date(`${input.from}T00:00:00Z`) : new Date(to.getTime() - 29 * DAY);
  if (from > to)
    throw badRequest("The range ends before it starts", [{ field: "from", message: "is after to" }]);
  if (to.getTime() - from.getTime() > 400 * DAY) {
    throw badRequest("Choose at most 400 days", [{ field: "from", message: "is too far back" }]);
  }
  return { from, until: new Date(to.getTime() + DAY) };
}

export async function analyticsRoutes(app: FastifyInstance, ctx: AppContext) {
  const config = { access: moduleAccess(MODULE_IDS.analytics) };
  const schema = (summary: string) => ({ tags: ["analytics"], security: [{ bearer: [] }], summary, body });

  /** Counts per day and catalogue of `what` over the events of `type`. */
  const perDay = async (
    input: RangeBody,
    type: "view",
    what: "events" | "visitors",
  ): Promise<AnalyticsPoint[]> => {
    const { from, until } = rangeOf(input);
    const measure = what === "events" ? sql<number>`count(*)` : sql<number>`count(distinct e.visitor_id)`;
    const rows = await sql<{ day: string; pdf_id: string; name: string; count: string }>`
      select to_char(date_trunc('day', e.created_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
             e.pdf_id, p.name, ${measure} as count
      from pdf_events e join pdfs p on p.id = e.pdf_id
      where e.type = ${type} and e.created_at >= ${from} and e.created_at < ${until}
        ${input.pdfId ? sql`and e.pdf_id = ${input.pdfId}` : sql``}
      group by 1, 2, 3
      order by 1, 3`.execute(ctx.db);
    return rows.rows.map((r) => ({ day: r.day, pdfId: r.pdf_id, pdfName: r.name, count: Number(r.count) }));
  };

  app.post<{ Body: RangeBody }>(
    "/api/analytics/views",
    { config, schema: schema("Catalogue views per day and catalogue") },
    async (request) => ({ data: await perDay(request.body ?? {}, "view", "events") }),
  );

  app.post<{ Body: RangeBody }>(
    "/api/analytics/visitors",
    { config, schema: schema("Unique visitors per day and catalogue") },
    async (request) => ({ data: await perDay(request.body ?? {}, "view", "visitors") }),
  );

  app.post<{ Body: RangeBody }>(
    "/api/analytics/words",
    { config, schema: schema("The most searched words, with how often") },
    async (request): Promise<{ data: SearchedWord[] }> => {
      const input = request.body ?? {};
      const { from, until } = rangeOf(input);
      const rows = await sql<{ word: string; count: string }>`
        select word, count(*) as count from pdf_events
        where type = 'search' and word is not null and created_at >= ${from} and created_at < ${until}
          ${input.pdfId ? sql`and pdf_id = ${input.pdfId}` : sql``}
        group by word order by count(*) desc, word limit 100`.execute(ctx.db);
      return { data: rows.rows.map((r) => ({ word: r.word, count: Number(r.count) })) };
    },
  );
}
