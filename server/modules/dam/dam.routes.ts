/**
 * The asset manager's API under the DAM base (`/dam`, docs/dam-api.md). Every route needs
 * the DAM module. Uploads are multipart streams; nothing is held in memory but a file's head.
 */
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  ALT_MAX,
  ASSET_NAME_MAX,
  ASSET_TYPES,
  type DamUploadError,
  type DamUploadResponse,
  TAG_MAX,
  TAGS_MAX,
} from "../../../schemas/dam";
import { principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest, HttpError } from "../../http/errors";
import { multipartParts } from "../../http/multipart";
import { type IncomingFile, type StoredUpload, storeUpload, uploadLimits } from "../../storage/upload";
import { type AssetListQuery, DamService, type FolderListQuery } from "./dam.service";
import type { AssetChange } from "./dam-assets.service";
import {
  ASSET_CAPTION,
  ASSET_FOCAL_POINT,
  config,
  DAM_BASE,
  folderNameSchema,
  idParams,
  nullableUuid,
  paging,
  security,
  tags,
  uuid,
} from "./route-schemas";
import { registerSelectionRoutes } from "./selection.routes";

export { DAM_BASE };

/**
 * The asset manager's routes. `alongside` registers other modules' routes over the same assets
 * (the CMS media library) in the same scope, with its multipart parser.
 */
export async function damRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  alongside?: (scope: FastifyInstance, dam: DamService) => Promise<void>,
): Promise<DamService> {
  const dam = new DamService(ctx);

  await app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: ctx.config.uploadMaxBytes + 1, files: 100, fields: 10, fieldSize: 1024 },
    });
    registerFolderRoutes(scope, dam);
    registerAssetRoutes(scope, ctx, dam);
    registerSelectionRoutes(scope, ctx, dam);
    await alongside?.(scope, dam);
  });
  return dam;
}

function registerFolderRoutes(app: FastifyInstance, dam: DamService) {
  app.get<{ Querystring: FolderListQuery }>(
    `${DAM_BASE}/folders`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Folders in a folder (top level without parentId)",
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: { parentId: uuid, sort: { type: "string", maxLength: 20 }, ...paging },
        },
      },
    },
    (request) => dam.folders.list(request.query),
  );

  app.post<{ Body: { name: string; parentId?: string | null } }>(
    `${DAM_BASE}/folders`,
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Create a folder",
        body: {
          type: "object",
          additionalProperties: false,
          required: ["name"],
          properties: { name: folderNameSchema, parentId: nullableUuid },
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await dam.folders.create(request.body, principalOf(request).userId)),
  );

  app.get<{ Params: { id: string } }>(
    `${DAM_BASE}/folders/:id`,
    {
      config,
      schema: { tags, security, summary: "A folder with its path, counts and size", params: idParams },
    },
    (request) => dam.folders.details(request.params.id),
  );

  app.patch<{ Params: { id: string }; Body: { name?: string; parentId?: string | null } }>(
    `${DAM_BASE}/folders/:id`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Rename or move a folder",
        params: idParams,
        body: {
          type: "object",
          additionalProperties: false,
          minProperties: 1,
          properties: { name: folderNameSchema, parentId: nullableUuid },
        },
      },
    },
    (request) => dam.folders.update(request.params.id, request.body, principalOf(request).userId),
  );

  app.delete<{ Params: { id: string } }>(
    `${DAM_BASE}/folders/:id`,
    { config, schema: { tags, security, summary: "Delete a folder with its contents", params: idParams } },
    async (request, reply) => {
      const { folders } = await dam.selection.remove(
        { folderIds: [request.params.id], assetIds: [] },
        principalOf(request).userId,
      );
      if (!folders) throw new HttpError(404, "Folder not found");
      return reply.status(204).send();
    },
  );
}

/**
 * Stores the files of a multipart upload as assets (the asset manager's upload, and the CMS
 * media library's). `into` puts every file in that folder whatever the request names (a user
 * who may only use one folder). A refused type is that file's problem; the others still go in.
 */
export async function uploadAssets(
  request: FastifyRequest,
  ctx: AppContext,
  dam: DamService,
  into?: string,
): Promise<DamUploadResponse> {
  const actorId = principalOf(request).userId;
  const answer: DamUploadResponse = { data: [], errors: [] };
  let checkedFolder: string | null = null;
  const receiving = receiveFiles(request, async (file, named) => {
    const folderId = into ?? named;
    if (folderId && folderId !== checkedFolder) {
      if (!(await dam.folders.exists(folderId))) {
        file.file.resume();
        throw badRequest("The folder does not exist", [{ field: "folderId", message: "does not exist" }]);
      }
      checkedFolder = folderId;
    }
    try {
      const stored = await storeUpload(ctx.storage, file, uploadLimits(ctx));
      answer.data.push(await dam.assets.create(stored, folderId, actorId));
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 400) {
        answer.errors.push({ name: file.filename, message: error.message } satisfies DamUploadError);
        return;
      }
      throw error;
    }
  });
  try {
    await receiving;
  } catch (error) {
    // A body broken after some files went in (truncated, a bad folder later on) is refused
    // as a whole: the files it stored go again, so a refused upload changes nothing.
    if (answer.data.length) {
      await dam.selection.remove({ folderIds: [], assetIds: answer.data.map((a) => a.id) }, actorId);
    }
    throw error;
  }
  if (!answer.data.length) {
    throw badRequest(
      answer.errors.length === 1 ? answer.errors[0].message : "None of the files could be uploaded",
      answer.errors.map((e) => ({ field: "file", message: e.message })),
    );
  }
  return answer;
}

/** Reads every part of a multipart upload, storing each file as it streams in. */
async function receiveFiles(
  request: FastifyRequest,
  onFile: (file: IncomingFile, folderId: string | null) => Promise<void>,
) {
  if (!request.isMultipart()) {
    throw badRequest("Send the files as multipart/form-data", [{ field: "file", message: "is required" }]);
  }
  let folderId: string | null = null;
  let files = 0;
  for await (const part of multipartParts(request)) {
    if (part.type === "field") {
      if (part.fieldname !== "folderId") continue;
      const value = String(part.value ?? "").trim();
      if (value && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) {
        throw badRequest("The folder is not valid", [
          { field: "folderId", message: 'must match format "uuid"' },
        ]);
      }
      folderId = value || null;
      continue;
    }
    if (part.fieldname !== "file") {
      part.file.resume();
      continue;
    }
    files++;
    await onFile({ filename: part.filename, file: part.file }, folderId);
  }
  if (!files) throw badRequest("No file was sent", [{ field: "file", message: "is required" }]);
}

function registerAssetRoutes(app: FastifyInstance, ctx: AppContext, dam: DamService) {
  app.get<{ Querystring: AssetListQuery }>(
    `${DAM_BASE}/assets`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Assets of a folder, or found by name or tag in every folder",
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            folderId: uuid,
            tag: { type: "string", maxLength: TAG_MAX },
            type: { type: "string", enum: [...ASSET_TYPES] },
            sort: { type: "string", maxLength: 20 },
            ...paging,
          },
        },
      },
    },
    (request) => dam.assets.list(request.query),
  );

  app.post(
    `${DAM_BASE}/assets`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Upload files (multipart: folderId, then one or more file parts)",
        consumes: ["multipart/form-data"],
      },
    },
    async (request, reply) => reply.status(201).send(await uploadAssets(request, ctx, dam)),
  );

  app.get<{ Params: { id: string } }>(
    `${DAM_BASE}/assets/:id`,
    { config, schema: { tags, security, summary: "An asset", params: idParams } },
    (request) => dam.assets.get(request.params.id),
  );

  app.patch<{
    Params: { id: string };
    Body: AssetChange;
  }>(
    `${DAM_BASE}/assets/:id`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Rename, describe, tag or move an asset",
        params: idParams,
        body: {
          type: "object",
          additionalProperties: false,
          minProperties: 1,
          properties: {
            name: { type: "string", minLength: 1, maxLength: ASSET_NAME_MAX },
            alt: { type: "string", maxLength: ALT_MAX },
            caption: ASSET_CAPTION,
            focalPoint: ASSET_FOCAL_POINT,
            tags: {
              type: "array",
              maxItems: TAGS_MAX,
              items: { type: "string", minLength: 1, maxLength: TAG_MAX },
            },
            folderId: nullableUuid,
          },
        },
      },
    },
    (request) => dam.assets.update(request.params.id, request.body, principalOf(request).userId),
  );

  app.put<{ Params: { id: string } }>(
    `${DAM_BASE}/assets/:id/file`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Replace an asset's file (forReplace); the asset gets a new URL",
        params: idParams,
        consumes: ["multipart/form-data"],
      },
    },
    async (request) => {
      const actorId = principalOf(request).userId;
      const current = await dam.assets.get(request.params.id);
      // The asset changes only once the whole body has been read: a second file or a
      // truncated body after the first one is refused with nothing replaced.
      let stored: StoredUpload | null = null;
      try {
        await receiveFiles(request, async (file) => {
          if (stored) {
            file.file.resume();
            throw badRequest("Send one file to replace an asset with", [
              { field: "file", message: "send one file" },
            ]);
          }
          stored = await storeUpload(ctx.storage, file, uploadLimits(ctx));
        });
      } catch (error) {
        if (stored) await ctx.storage.delete([(stored as StoredUpload).key]);
        throw error;
      }
      if (!stored) throw badRequest("No file was sent", [{ field: "file", message: "is required" }]);
      return dam.assets.replaceFile(current.id, stored, actorId);
    },
  );

  app.delete<{ Params: { id: string } }>(
    `${DAM_BASE}/assets/:id`,
    { config, schema: { tags, security, summary: "Delete an asset and its file", params: idParams } },
    async (request, reply) => {
      const { assets } = await dam.selection.remove(
        { folderIds: [], assetIds: [request.params.id] },
        principalOf(request).userId,
      );
      if (!assets) throw new HttpError(404, "Asset not found");
      return reply.status(204).send();
    },
  );
}
