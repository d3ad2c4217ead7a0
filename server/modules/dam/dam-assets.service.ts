/** Assets of the asset manager: list (in a folder, or searched everywhere), read, record an upload, edit, replace the file. */
import { sql } from "kysely";
import { ASSET_TYPE_MIME, type DamAsset } from "../../../schemas/dam";
import { badRequest, notFound } from "../../http/errors";
import { pageWithTotal } from "../../http/list-page";
import type { StoredUpload } from "../../storage/upload";
import {
  type AssetListQuery,
  type AssetRecord,
  type ListAnswer,
  likeOf,
  orderOf,
  toAsset,
} from "./dam.records";
import { DamStore } from "./dam.store";

/** The columns of an asset that describe its stored file: written on upload and on replace. */
const fileColumns = (upload: StoredUpload) => ({
  original_name: upload.originalName,
  storage_key: upload.key,
  mime: upload.kind.mime,
  size: upload.size,
  width: upload.width,
  height: upload.height,
});

/** What a PATCH of an asset may change. */
export interface AssetChange {
  name?: string;
  alt?: string;
  caption?: string;
  focalPoint?: { x: number; y: number } | null;
  tags?: string[];
  folderId?: string | null;
}

export class DamAssets extends DamStore {
  async list(query: AssetListQuery): Promise<ListAnswer<DamAsset>> {
    const { page = 1, pageSize = 100 } = query;
    let base = this.db.selectFrom("dam_assets");
    const everywhere = Boolean(query.q || query.tag || query.everywhere || query.ids);
    if (query.within) base = base.where("folder_id", "=", query.within);
    if (query.ids) base = base.where("id", "in", query.ids.length ? [...query.ids] : [null as never]);
    if (!everywhere) {
      base = query.folderId
        ? base.where("folder_id", "=", query.folderId)
        : base.where("folder_id", "is", null);
    }
    if (query.q) {
      const like = likeOf(query.q);
      base = base.where((eb) =>
        eb.or([eb("name", "ilike", like), eb("original_name", "ilike", like), eb("alt", "ilike", like)]),
      );
    }
    if (query.tag) base = base.where(sql<boolean>`tags @> array[${query.tag}]::text[]`);
    if (query.type) base = base.where("mime", "like", ASSET_TYPE_MIME[query.type]);
    const order = orderOf(query.sort, { name: "lower(name)", createdAt: "created_at", size: "size" }, "name");
    const { rows, total } = await pageWithTotal(this.db, base.selectAll().orderBy(order), {
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return { data: rows.map(toAsset), total };
  }

  async get(id: string): Promise<DamAsset> {
    return toAsset(await this.assetRow(this.db, id));
  }

  /** Records a stored upload; deletes the file again when the row cannot be written. */
  async create(upload: StoredUpload, folderId: string | null, actorId: string): Promise<DamAsset> {
    try {
      const row = await this.db
        .insertInto("dam_assets")
        .values({
          folder_id: folderId,
          name: upload.originalName,
          ...fileColumns(upload),
          created_by: actorId,
          updated_by: actorId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      this.publish({ kind: "asset", type: "created", ids: [row.id], folderIds: [folderId], actorId });
      return toAsset(row);
    } catch (error) {
      await this.deleteFiles([upload.key]);
      if ((error as { code?: string }).code === "23503") {
        throw badRequest("The folder does not exist", [{ field: "folderId", message: "does not exist" }]);
      }
      throw error;
    }
  }

  async update(id: string, input: AssetChange, actorId: string): Promise<DamAsset> {
    const before = await this.assetRow(this.db, id);
    if (input.folderId !== undefined) await this.assertParent(this.db, input.folderId, "folderId");
    const name = input.name?.trim();
    if (input.name !== undefined && !name) {
      throw badRequest("The name cannot be empty", [{ field: "name", message: "must not be empty" }]);
    }
    const tags = input.tags && [...new Set(input.tags.map((t) => t.trim()).filter(Boolean))];
    const row = await this.db
      .updateTable("dam_assets")
      .set({
        ...(name !== undefined ? { name } : {}),
        ...(input.alt !== undefined ? { alt: input.alt } : {}),
        ...(input.caption !== undefined ? { caption: input.caption } : {}),
        ...(input.focalPoint !== undefined
          ? { focal_x: input.focalPoint?.x ?? null, focal_y: input.focalPoint?.y ?? null }
          : {}),
        ...(tags ? { tags } : {}),
        ...(input.folderId !== undefined ? { folder_id: input.folderId } : {}),
        updated_at: new Date(),
        updated_by: actorId,
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound("Asset not found");
    const moved = before.folder_id !== row.folder_id;
    this.publish({
      kind: "asset",
      type: moved ? "moved" : "updated",
      ids: [id],
      folderIds: [before.folder_id, row.folder_id],
      actorId,
    });
    return toAsset(row);
  }

  /** Points an asset at a newly stored file (forReplace); the old file goes after the commit. */
  async replaceFile(id: string, upload: StoredUpload, actorId: string): Promise<DamAsset> {
    let before: AssetRecord;
    try {
      before = await this.assetRow(this.db, id);
    } catch (error) {
      await this.deleteFiles([upload.key]);
      throw error;
    }
    const row = await this.db
      .updateTable("dam_assets")
      .set({
        ...fileColumns(upload),
        updated_at: new Date(),
        updated_by: actorId,
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      await this.deleteFiles([upload.key]);
      throw notFound("Asset not found");
    }
    await this.deleteFiles([before.storage_key]);
    this.publish({ kind: "asset", type: "updated", ids: [id], folderIds: [row.folder_id], actorId });
    return toAsset(row);
  }
}
