/**
 * `/cms/media`: the CMS media library, a view over the asset manager's assets (one storage,
 * one set of renditions, no second copy). A user with the asset manager sees every asset; a
 * user with the CMS module only sees and uploads into the "CMS media" folder (made on first
 * use). Alt text, caption and focal point are the asset's own, so the asset manager shows
 * them too. Where-used lists the entries whose draft or published values name an asset, and
 * deleting a used asset asks first.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import { ALT_MAX } from "../../../schemas/dam";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { conflict, notFound } from "../../http/errors";
import { MAX_PAGE } from "../../http/list-query";
import { idParams } from "../../http/route-params";
import { uploadAssets } from "../dam/dam.routes";
import type { DamService } from "../dam/dam.service";
import type { AssetChange } from "../dam/dam-assets.service";
import { ASSET_CAPTION, ASSET_FOCAL_POINT } from "../dam/route-schemas";
import type { TypeRegistry } from "./type-registry";

export const CMS_MEDIA_FOLDER = "CMS media";

const config = { access: moduleAccess(MODULE_IDS.cms) };
const security = [{ bearer: [] }];
const tags = ["cms media"];

export interface MediaUse {
  type: string;
  typeName: string;
  id: string;
  label: string;
}

const UUID_TEXT = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

export async function cmsMediaRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  dam: DamService,
  registry: TypeRegistry,
) {
  const db = ctx.db;
  const seesEverything = (request: FastifyRequest) => principalOf(request).modules.has(MODULE_IDS.dam);

  /** The "CMS media" folder (top level), made when first needed. */
  async function mediaFolder(actorId: string): Promise<string> {
    const found = await db
      .selectFrom("dam_folders")
      .select("id")
      .where("parent_id", "is", null)
      .where("name", "=", CMS_MEDIA_FOLDER)
      .executeTakeFirst();
    if (found) return found.id;
    return (await dam.folders.create({ name: CMS_MEDIA_FOLDER, parentId: null }, actorId)).id;
  }

  /** The asset, when this user may see it. */
  async function visible(request: FastifyRequest, id: string): Promise<void> {
    if (seesEverything(request)) {
      await dam.assets.get(id);
      return;
    }
    const folder = await mediaFolder(principalOf(request).userId);
    const row = await db
      .selectFrom("dam_assets")
      .select("id")
      .where("id", "=", id)
      .where("folder_id", "=", folder)
      .executeTakeFirst();
    if (!row) throw notFound("Media item not found");
  }

  /** Entries whose draft or published values hold the asset's id. */
  async function usesOf(id: string): Promise<MediaUse[]> {
    const types = [...(await registry.all()).values()];
    const rows = await db
      .selectFrom("cms_entries")
      .select(["id", "type_id", "data"])
      .where(
        sql<boolean>`(data::text like ${`%"${id}"%`} or coalesce(published::text, '') like ${`%"${id}"%`})`,
      )
      .limit(100)
      .execute();
    return rows.map((r) => {
      const type = types.find((t) => t.id === r.type_id);
      const label = type ? (r.data as Record<string, unknown>)[type.schema["x-label"]] : undefined;
      return {
        type: type?.apiName ?? "",
        typeName: type?.name ?? "",
        id: r.id,
        label: typeof label === "string" ? label : r.id,
      };
    });
  }

  app.get<{ Querystring: { page: number; pageSize: number; q?: string; ids?: string } }>(
    "/cms/media",
    {
      config,
      schema: {
        tags,
        security,
        summary: "The media library: { mediaDtoList, metaData: { pagination } }",
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            page: { type: "integer", minimum: 1, maximum: MAX_PAGE, default: 1 },
            pageSize: { type: "integer", minimum: 1, maximum: 100, default: 24 },
            q: { type: "string", maxLength: 200 },
            ids: {
              type: "string",
              description: "Only these assets: ids separated by commas (an entry's media fields)",
              pattern: `^${UUID_TEXT}(,${UUID_TEXT}){0,99}$`,
              "x-patternMessage": "must be up to 100 asset ids separated by commas",
            },
          },
        },
      },
    },
    async (request) => {
      const { page, pageSize, q } = request.query;
      const ids = request.query.ids?.split(",");
      const everything = seesEverything(request);
      // Without the asset manager: the CMS folder only. With it: every folder (a search's reach).
      const folderId = everything ? null : await mediaFolder(principalOf(request).userId);
      const answer = await dam.assets.list({
        ...(folderId ? { within: folderId } : {}),
        everywhere: true,
        q: q || undefined,
        ...(ids ? { ids } : {}),
        page,
        pageSize,
        sort: "-createdAt",
      });
      return {
        mediaDtoList: answer.data,
        metaData: {
          pagination: { page, pageSize, total: answer.total, pageCount: Math.ceil(answer.total / pageSize) },
        },
      };
    },
  );

  app.post(
    "/cms/media",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Upload into the media library (multipart file parts)",
        consumes: ["multipart/form-data"],
      },
    },
    async (request, reply) => {
      // Into the CMS folder, whoever uploads: the library's own uploads stay together.
      const into = await mediaFolder(principalOf(request).userId);
      return reply.status(201).send(await uploadAssets(request, ctx, dam, into));
    },
  );

  app.patch<{ Params: { id: string }; Body: Pick<AssetChange, "alt" | "caption" | "focalPoint"> }>(
    "/cms/media/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Alt text, caption and focal point of a media item (the asset's own)",
        params: idParams,
        body: {
          type: "object",
          additionalProperties: false,
          minProperties: 1,
          properties: {
            alt: { type: "string", title: "Alt text", maxLength: ALT_MAX },
            caption: ASSET_CAPTION,
            focalPoint: ASSET_FOCAL_POINT,
          },
        },
      },
    },
    async (request) => {
      await visible(request, request.params.id);
      return dam.assets.update(request.params.id, request.body, principalOf(request).userId);
    },
  );

  app.get<{ Params: { id: string } }>(
    "/cms/media/:id/usage",
    { config, schema: { tags, security, summary: "The entries that use a media item", params: idParams } },
    async (request) => {
      await visible(request, request.params.id);
      const data = await usesOf(request.params.id);
      return { data, total: data.length };
    },
  );

  app.delete<{ Params: { id: string }; Querystring: { confirm?: boolean } }>(
    "/cms/media/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Delete a media item; one that entries use needs confirm=true",
        params: idParams,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: { confirm: { type: "boolean" } },
        },
      },
    },
    async (request, reply) => {
      await visible(request, request.params.id);
      const uses = await usesOf(request.params.id);
      if (uses.length && request.query.confirm !== true)
        throw conflict(
          `This media item is used by ${uses.map((u) => `${u.typeName} "${u.label}"`).join(", ")}; confirm to delete it anyway`,
        );
      await dam.selection.remove(
        { folderIds: [], assetIds: [request.params.id] },
        principalOf(request).userId,
      );
      return reply.status(204).send();
    },
  );
}
