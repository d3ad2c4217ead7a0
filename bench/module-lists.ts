/**
 * The engine bench's module lists (issue 28): one list per module, page 1 with its total and
 * the screen's default sort, as the admin SPA asks for it (providers/data-provider.ts
 * `toListParams`: `page`, `pageSize`, `sort` from the schema's `x-defaultSort`), but PAGE_SIZE
 * (25) rows as the products list case (the SPA's lists ask 10), each beside a floor route
 * answering the same page and total from ONE SQL statement:
 *
 *   cms-entries       GET /cms/entries/article?sort=-updated_at      (server/modules/cms, entries.service.ts)
 *   form-submissions  GET /forms/forms/{id}/submissions?sort=-created_at (server/modules/forms/submissions.routes.ts)
 *   crm-clients       GET /crm/clients?sort=-updated_at              (the engine, x-custom: the CRM's custom fields)
 *   automations       GET /api/automations?sort=-updated_at          (the engine)
 *   proposals         GET /api/proposals?sort=-updated_at            (the engine)
 *
 * A floor selects the columns the module answers (an engine resource: its schema's properties;
 * an entry: its values beside the entry's own fields; a submission: its answers, the UTM
 * columns and the tracking), the total as an uncorrelated scalar subquery (run once, as
 * FLOOR_SQL.list for products), the same order with `id` last, and shapes the rows in
 * JavaScript as the module does (an entry's values and a submission's answers spread flat).
 * The rows are bench/module-lists-seed.ts's.
 */
import type { FastifyInstance } from "fastify";
import { automationSchema } from "../schemas/automations";
import { clientSchema } from "../schemas/crm-clients";
import { proposalSchema } from "../schemas/proposals";
import type { Query } from "./resource-engine-floor";
import { CMS_TYPE, PAGE_SIZE } from "./resource-engine-settings";

type Row = Record<string, unknown>;

/** What a module case's paths need: the contact form's id (the same on the PGlite floor's copy). */
export interface ModuleIds {
  formId: string;
}

export interface ModuleCase {
  /** Its name in BENCH_CASES. */
  name: string;
  label: string;
  /** Page 1 as the SPA asks for it. */
  enginePath(ids: ModuleIds): string;
  floorPath(ids: ModuleIds): string;
  /** The floor's one statement: parameters (key?, limit, offset). */
  sql: string;
  /** A value naming each row, the same on both databases (to compare the order of the pages). */
  labelOf(row: Row): unknown;
}

const page1 = `page=1&pageSize=${PAGE_SIZE}`;
/** A content type's id by its key (entries belong to collections and singles, not components). */
const TYPE_ID = "select id from content_types where api_name = $1 and kind <> 'component'";
/** `t.a, t.b, …` of a schema's properties: the columns an engine resource answers. */
const columnsOf = (schema: { properties: object }) =>
  Object.keys(schema.properties)
    .map((c) => `t.${c}`)
    .join(", ");

/** An engine resource's list: its columns, newest updated first, the total of the whole table. */
const engineListSql = (table: string, schema: { properties: object }) =>
  `select ${columnsOf(schema)}, (select count(*)::int from ${table}) as __total from ${table} t order by t.updated_at desc, t.id limit $1 offset $2`;

export const MODULE_CASES: readonly ModuleCase[] = [
  {
    name: "cms-entries",
    label: `CMS entries p1 ×${PAGE_SIZE}, total`,
    enginePath: () => `/cms/entries/${CMS_TYPE}?${page1}&sort=-updated_at`,
    floorPath: () => `/floor/cms/entries/${CMS_TYPE}?${page1}`,
    // The type by its key, as a scalar subquery (run once): the type joined in from a CTE, as
    // the CMS public floor does, cost this floor twice the CPU per request (PGlite, short run).
    sql: `select t.id, t.data, t.status, t.domain_ids, t.revision, t.version, t.draft_changed, t.published_at,
       t.publish_at, t.unpublish_at, t.created_at, t.updated_at, t.created_by, t.updated_by,
       (select count(*)::int from cms_entries where type_id = (${TYPE_ID})) as __total
  from cms_entries t where t.type_id = (${TYPE_ID})
 order by t.updated_at desc, t.id limit $2 offset $3`,
    labelOf: (r) => r.title,
  },
  {
    name: "form-submissions",
    label: `form submissions p1 ×${PAGE_SIZE}, total`,
    enginePath: ({ formId }) => `/forms/forms/${formId}/submissions?${page1}&sort=-created_at`,
    floorPath: ({ formId }) => `/floor/forms/${formId}/submissions?${page1}`,
    sql: `select t.id, t.created_at, t.version, t.answers, t.tracking,
       (select count(*)::int from form_submissions where form_id = $1) as __total
  from form_submissions t where t.form_id = $1
 order by t.created_at desc, t.id limit $2 offset $3`,
    labelOf: (r) => r.name,
  },
  {
    name: "crm-clients",
    label: `CRM clients p1 ×${PAGE_SIZE}, total`,
    enginePath: () => `/crm/clients?${page1}&sort=-updated_at`,
    floorPath: () => `/floor/crm/clients?${page1}`,
    sql: engineListSql("clients", clientSchema),
    labelOf: (r) => r.name,
  },
  {
    name: "automations",
    label: `automations p1 ×${PAGE_SIZE}, total`,
    enginePath: () => `/api/automations?${page1}&sort=-updated_at`,
    floorPath: () => `/floor/automations?${page1}`,
    sql: engineListSql("automations", automationSchema),
    labelOf: (r) => r.name,
  },
  {
    name: "proposals",
    label: `proposals p1 ×${PAGE_SIZE}, total`,
    enginePath: () => `/api/proposals?${page1}&sort=-updated_at`,
    floorPath: () => `/floor/proposals?${page1}`,
    sql: engineListSql("proposals", proposalSchema),
    labelOf: (r) => r.number,
  },
];

export const MODULE_CASE_NAMES = MODULE_CASES.map((c) => c.name);

const sqlOf = (name: string) => MODULE_CASES.find((c) => c.name === name)?.sql ?? "";

type Paging = { page?: string; pageSize?: string };
const limitOffset = (q: Paging) => {
  const pageSize = Number(q.pageSize ?? PAGE_SIZE);
  return [pageSize, (Number(q.page ?? 1) - 1) * pageSize];
};

/**
 * `{ data, total }` of a page whose rows carry the total (as `__total`: a proposal has a
 * `total` of its own), each row shaped by `shape`.
 */
const answer = (rows: Row[], shape: (row: Row) => Row = (row) => row) => ({
  data: rows.map(({ __total: _, ...row }) => shape(row)),
  total: rows.length ? Number(rows[0].__total) : 0,
});

/** An entry as the admin API answers it: its values, then the entry's own fields. */
function entryOf({ data, ...own }: Row): Row {
  return { ...(data as Row), ...own };
}

/** A submission as its list answers it: its answers spread, the UTM columns and the referrer flat. */
function submissionOf(row: Row): Row {
  const tracking = row.tracking as { parameters?: Record<string, string>; referrer?: string };
  return {
    id: row.id,
    created_at: row.created_at,
    version: row.version,
    ...(row.answers as Row),
    utm_source: tracking.parameters?.utm_source ?? "",
    utm_medium: tracking.parameters?.utm_medium ?? "",
    utm_campaign: tracking.parameters?.utm_campaign ?? "",
    referrer: tracking.referrer ?? "",
    tracking,
  };
}

/** The module floors' routes, one statement each (bench/resource-engine-floor.ts serves them). */
export function moduleFloorRoutes(floor: FastifyInstance, query: Query): void {
  floor.get<{ Params: { type: string }; Querystring: Paging }>("/floor/cms/entries/:type", async (request) =>
    answer(
      (await query(sqlOf("cms-entries"), [request.params.type, ...limitOffset(request.query)])).rows,
      entryOf,
    ),
  );
  floor.get<{ Params: { id: string }; Querystring: Paging }>(
    "/floor/forms/:id/submissions",
    async (request) =>
      answer(
        (await query(sqlOf("form-submissions"), [request.params.id, ...limitOffset(request.query)])).rows,
        submissionOf,
      ),
  );
  for (const [path, name] of [
    ["/floor/crm/clients", "crm-clients"],
    ["/floor/automations", "automations"],
    ["/floor/proposals", "proposals"],
  ] as const) {
    const text = sqlOf(name);
    floor.get<{ Querystring: Paging }>(path, async (request) =>
      answer((await query(text, limitOffset(request.query))).rows),
    );
  }
}
