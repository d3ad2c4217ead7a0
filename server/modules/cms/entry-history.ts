/**
 * A CMS entry's history (issue 31): its versions (every save, publish and restore is one,
 * server/versions), each with what it changed from the version before (schemas/versions.ts
 * `diffValues`), in the shape of every record's history (schemas/history.ts), so the entry's
 * page shows it in the same History tab as any resource's record. Restoring is the versions'
 * own (`…/versions/{number}/restore`), so the page says these entries are not restored here.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import type { HistoryEntry, HistoryPage } from "../../../schemas/history";
import { historyPageSchema } from "../../../schemas/history";
import { diffValues } from "../../../schemas/versions";
import { moduleAccess } from "../../auth/access";
import type { AppContext } from "../../context";
import { notFound } from "../../http/errors";
import type { AnyDb } from "../../resources/rules";
import type { ContentTypesService } from "./content-types.service";
import { entriesResource } from "./entries.service";
import type { EntryLifecycle } from "./entry-lifecycle";
import { entryParams } from "./route-schemas";

type Values = Record<string, unknown>;

export function entryHistoryRoute(
  app: FastifyInstance,
  ctx: AppContext,
  { types, lifecycle }: { types: ContentTypesService; lifecycle: EntryLifecycle },
): void {
  app.get<{ Params: { type: string; id: string }; Querystring: { page: number; pageSize: number } }>(
    "/cms/entries/:type/:id/history",
    {
      config: { access: moduleAccess(MODULE_IDS.cms) },
      schema: {
        tags: ["cms entries"],
        security: [{ bearer: [] }],
        summary: "An entry's history: its versions, newest first, each with the fields it changed",
        params: entryParams,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            page: { type: "integer", minimum: 1, maximum: 100000, default: 1 },
            pageSize: { type: "integer", minimum: 1, maximum: 100, default: 20 },
          },
        },
        response: { 200: historyPageSchema },
      },
    },
    async (request): Promise<HistoryPage> => {
      const type = await types.find(request.params.type);
      if (type.kind === "component") throw notFound("Content type not found");
      const { id } = request.params;
      const { page, pageSize } = request.query;
      // Newest first; a 404 when there is no such entry.
      const versions = await lifecycle.versions(type, id);
      const shown = versions.slice((page - 1) * pageSize, page * pageSize);
      if (!shown.length) return { data: [], total: versions.length, restorable: false };
      // The shown versions' values and the one before the oldest, in one read.
      const oldest = shown[shown.length - 1].number;
      const rows = await (ctx.db as unknown as AnyDb)
        .selectFrom("record_versions")
        .select(["number", "data"])
        .where("resource", "=", entriesResource(type))
        .where("record_id", "=", id)
        .where("number", ">=", oldest - 1)
        .where("number", "<=", shown[0].number)
        .execute();
      const data = new Map<number, Values>(
        rows.map((r) => [r.number as number, typeof r.data === "string" ? JSON.parse(r.data) : r.data]),
      );
      const order = Object.keys(type.schema.properties);
      const entries = shown.map(
        (v): HistoryEntry => ({
          id: `v${v.number}`,
          resource: entriesResource(type),
          recordId: id,
          action: v.number === 1 ? "created" : "updated",
          at: v.createdAt,
          actor: v.createdBy
            ? { kind: "user", id: v.createdBy, name: v.author ?? "A deleted user" }
            : { kind: "system", id: null, name: "The system" },
          changes: diffValues(data.get(v.number - 1) ?? {}, data.get(v.number) ?? {}, order).map((c) => ({
            field: c.field,
            from: c.before,
            to: c.after,
          })),
          version: { number: v.number, kind: v.kind },
        }),
      );
      return { data: entries, total: versions.length, restorable: false };
    },
  );
}
