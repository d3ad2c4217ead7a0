/**
 * The asset manager's data: nested folders and the assets in them (docs/dam-api.md).
 * Every write commits first, then deletes files that no row points at any more, then
 * tells the `/dam` socket namespace what changed.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import {
  ASSET_TYPE_MIME,
  type AssetType,
  type DamAsset,
  type DamChange,
  type DamFolder,
  type DamFolderDetails,
  type DamPathItem,
} from "../../../schemas/dam";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { badRequest, conflict, HttpError, notFound } from "../../http/errors";
import { assetUrls, renditionKeys } from "../../storage/serve";
import type { StoredUpload } from "../../storage/upload";

type Db = Kysely<Database>;
type FolderRow = { id: string; name: string; parent_id: string | null; created_at: Date; updated_at: Date };

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function toFolder(row: FolderRow): DamFolder {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

interface AssetRecord {
  id: string;
  folder_id: string | null;
  name: string;
  original_name: string;
  storage_key: string;
  mime: string;
  size: string | number | bigint;
  width: number | null;
  height: number | null;
  alt: string;
  tags: string[];
  created_at: Date;
  updated_at: Date;
}

export function toAsset(row: AssetRecord): DamAsset {
  return {
    id: row.id,
    folderId: row.folder_id,
    name: row.name,
    originalName: row.original_name,
    mime: row.mime,
    size: Number(row.size),
    width: row.width,
    height: row.height,
    alt: row.alt,
    tags: row.tags ?? [],
    ...assetUrls(row.storage_key, row.mime),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** A folder name as stored: trimmed; refused when empty, "." or "..", or with a slash. */
export function folderName(raw: string): string {
  const name = raw.trim();
  if (!name || name === "." || name === ".." || /[/\\]/.test(name)) {
    throw badRequest("This is not a valid folder name", [
      { field: "name", message: "must not be empty, '.', '..' or contain slashes" },
    ]);
  }
  return name;
}

const NAME_TAKEN = (name: string) =>
  conflict(`A folder named "${name}" already exists here`, [{ field: "name", message: "is already in use" }]);

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505";

export interface ListAnswer<T> {
  data: T[];
  total: number;
}

export interface FolderListQuery {
  parentId?: string;
  q?: string;
  sort?: string;
  page?: number;
  pageSize?: number;
}

export interface AssetListQuery {
  folderId?: string;
  q?: string;
  tag?: string;
  /** Only assets of this kind (by detected mime type). */
  type?: AssetType;
  sort?: string;
  page?: number;
  pageSize?: number;
}

/** `name`, `-createdAt`… as an order by; only the listed fields. */
function orderOf(sort: string | undefined, columns: Record<string, string>, fallback: string) {
  const raw = sort || fallback;
  const desc = raw.startsWith("-");
  const field = desc ? raw.slice(1) : raw;
  const column = columns[field];
  if (!column) {
    throw badRequest(`Cannot sort by ${field}`, [
      { field: "sort", message: `must be one of ${Object.keys(columns).join(", ")}` },
    ]);
  }
  return sql.raw(`${column} ${desc ? "desc" : "asc"}, id asc`);
}

const likeOf = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class DamService {
  constructor(private readonly ctx: AppContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  private publish(change: Omit<DamChange, "folderIds"> & { folderIds: (string | null)[] }) {
    this.ctx.damEvents.publish({ ...change, folderIds: [...new Set(change.folderIds)] });
  }

  /** Deletes stored files (and their renditions) that no row uses any more; never fails a request. */
  private async deleteFiles(keys: string[]) {
    if (!keys.length) return;
    try {
      await this.ctx.storage.delete(keys.flatMap((k) => [k, ...renditionKeys(k)]));
    } catch (error) {
      this.ctx.log.error({ err: error, keys: keys.length }, "could not delete stored files");
    }
  }

  // ---------------------------------------------------------------- folders

  async listFolders(query: FolderListQuery): Promise<ListAnswer<DamFolder>> {
    const { page = 1, pageSize = 100 } = query;
    let base = this.db.selectFrom("dam_folders");
    base = query.parentId
      ? base.where("parent_id", "=", query.parentId)
      : base.where("parent_id", "is", null);
    if (query.q) base = base.where("name", "ilike", likeOf(query.q));
    const order = orderOf(
      query.sort,
      { name: "lower(name)", createdAt: "created_at", updatedAt: "updated_at" },
      "name",
    );
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .select((eb) =>
          eb
            .exists(
              eb
                .selectFrom("dam_folders as child")
                .select("child.id")
                .whereRef("child.parent_id", "=", "dam_folders.id"),
            )
            .as("has_children"),
        )
        .orderBy(order)
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      base.select(sql<string>`count(*)`.as("n")).executeTakeFirstOrThrow(),
    ]);
    return {
      data: rows.map((row) => ({ ...toFolder(row), hasChildren: Boolean(row.has_children) })),
      total: Number(count.n),
    };
  }

  private async folderRow(db: Db, id: string): Promise<FolderRow> {
    const row = await db.selectFrom("dam_folders").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("Folder not found");
    return row;
  }

  private async assertParent(db: Db, parentId: string | null | undefined, field = "parentId") {
    if (!parentId) return;
    const found = await db
      .selectFrom("dam_folders")
      .select("id")
      .where("id", "=", parentId)
      .executeTakeFirst();
    if (!found) throw badRequest("The folder does not exist", [{ field, message: "does not exist" }]);
  }

  async createFolder(input: { name: string; parentId?: string | null }, actorId: string): Promise<DamFolder> {
    const name = folderName(input.name);
    const parentId = input.parentId ?? null;
    await this.assertParent(this.db, parentId);
    try {
      const row = await this.db
        .insertInto("dam_folders")
        .values({ name, parent_id: parentId, created_by: actorId, updated_by: actorId })
        .returningAll()
        .executeTakeFirstOrThrow();
      this.publish({ kind: "folder", type: "created", ids: [row.id], folderIds: [parentId], actorId });
      return toFolder(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw NAME_TAKEN(name);
      throw error;
    }
  }

  /** The breadcrumb, root first, of a folder (HierarchyFolderData). */
  private async pathOf(id: string): Promise<DamPathItem[]> {
    const { rows } = await sql<DamPathItem & { depth: number }>`
      with recursive up(id, name, parent_id, depth) as (
        select id, name, parent_id, 0 from dam_folders where id = ${id}
        union all
        select f.id, f.name, f.parent_id, up.depth + 1 from dam_folders f join up on f.id = up.parent_id
      )
      select id, name, depth from up order by depth desc`.execute(this.db);
    return rows.map(({ id: folderId, name }) => ({ id: folderId, name }));
  }

  async folderDetails(id: string): Promise<DamFolderDetails> {
    const row = await this.folderRow(this.db, id);
    const [path, totals] = await Promise.all([
      this.pathOf(id),
      sql<{ folder_count: string; asset_count: string; total_size: string }>`
        with recursive down(id) as (
          select id from dam_folders where id = ${id}
          union all
          select f.id from dam_folders f join down on f.parent_id = down.id
        )
        select
          (select count(*) from dam_folders where parent_id = ${id}) as folder_count,
          (select count(*) from dam_assets where folder_id in (select id from down)) as asset_count,
          (select coalesce(sum(size), 0) from dam_assets where folder_id in (select id from down)) as total_size
      `.execute(this.db),
    ]);
    const t = totals.rows[0];
    return {
      ...toFolder(row),
      path,
      folderCount: Number(t.folder_count),
      assetCount: Number(t.asset_count),
      totalSize: Number(t.total_size),
    };
  }

  /** Refuses to move folders into themselves or their own descendants (call inside the lock). */
  private async assertNoCycle(db: Db, folderIds: string[], targetId: string | null) {
    if (!targetId || !folderIds.length) return;
    const { rows } = await sql<{ id: string }>`
      with recursive up(id, parent_id) as (
        select id, parent_id from dam_folders where id = ${targetId}
        union all
        select f.id, f.parent_id from dam_folders f join up on f.id = up.parent_id
      )
      select id from up where id = any(${folderIds}::uuid[])`.execute(db);
    if (rows.length) {
      throw badRequest("A folder cannot move into itself or its own sub-folder", [
        { field: "parentId", message: "cannot move a folder into itself or its own sub-folder" },
      ]);
    }
  }

  /** Moves serialise on the folder table, so two crossing moves cannot make a loop. */
  private lockFolders(trx: Transaction<Database>) {
    return sql`lock table dam_folders in share row exclusive mode`.execute(trx);
  }

  async updateFolder(
    id: string,
    input: { name?: string; parentId?: string | null },
    actorId: string,
  ): Promise<DamFolder> {
    const name = input.name === undefined ? undefined : folderName(input.name);
    try {
      const { row, before } = await this.db.transaction().execute(async (trx) => {
        if (input.parentId !== undefined) await this.lockFolders(trx);
        const current = await this.folderRow(trx, id);
        if (input.parentId !== undefined) {
          await this.assertParent(trx, input.parentId);
          await this.assertNoCycle(trx, [id], input.parentId);
        }
        const updated = await trx
          .updateTable("dam_folders")
          .set({
            ...(name !== undefined ? { name } : {}),
            ...(input.parentId !== undefined ? { parent_id: input.parentId } : {}),
            updated_at: new Date(),
            updated_by: actorId,
          })
          .where("id", "=", id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { row: updated, before: current };
      });
      const moved = before.parent_id !== row.parent_id;
      this.publish({
        kind: "folder",
        type: moved ? "moved" : "updated",
        ids: [id],
        folderIds: [before.parent_id, row.parent_id],
        actorId,
      });
      return toFolder(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw NAME_TAKEN(name ?? "");
      throw error;
    }
  }

  // ---------------------------------------------------------------- assets

  async listAssets(query: AssetListQuery): Promise<ListAnswer<DamAsset>> {
    const { page = 1, pageSize = 100 } = query;
    let base = this.db.selectFrom("dam_assets");
    const everywhere = Boolean(query.q || query.tag);
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
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy(order)
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      base.select(sql<string>`count(*)`.as("n")).executeTakeFirstOrThrow(),
    ]);
    return { data: rows.map(toAsset), total: Number(count.n) };
  }

  private async assetRow(db: Db, id: string): Promise<AssetRecord> {
    const row = await db.selectFrom("dam_assets").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("Asset not found");
    return row;
  }

  async getAsset(id: string): Promise<DamAsset> {
    return toAsset(await this.assetRow(this.db, id));
  }

  /** Records a stored upload; deletes the file again when the row cannot be written. */
  async createAsset(upload: StoredUpload, folderId: string | null, actorId: string): Promise<DamAsset> {
    try {
      const row = await this.db
        .insertInto("dam_assets")
        .values({
          folder_id: folderId,
          name: upload.originalName,
          original_name: upload.originalName,
          storage_key: upload.key,
          mime: upload.kind.mime,
          size: upload.size,
          width: upload.width,
          height: upload.height,
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

  async folderExists(id: string): Promise<boolean> {
    return Boolean(
      await this.db.selectFrom("dam_folders").select("id").where("id", "=", id).executeTakeFirst(),
    );
  }

  async updateAsset(
    id: string,
    input: { name?: string; alt?: string; tags?: string[]; folderId?: string | null },
    actorId: string,
  ): Promise<DamAsset> {
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
        original_name: upload.originalName,
        storage_key: upload.key,
        mime: upload.kind.mime,
        size: upload.size,
        width: upload.width,
        height: upload.height,
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

  // ---------------------------------------------------------------- selections

  async move(
    input: { folderIds: string[]; assetIds: string[]; targetFolderId: string | null },
    actorId: string,
  ): Promise<{ folders: number; assets: number }> {
    const { folderIds, assetIds, targetFolderId } = input;
    const result = await this.db.transaction().execute(async (trx) => {
      await this.lockFolders(trx);
      await this.assertParent(trx, targetFolderId, "targetFolderId");
      try {
        await this.assertNoCycle(trx, folderIds, targetFolderId);
      } catch (error) {
        if (error instanceof HttpError) {
          throw badRequest(error.message, [
            { field: "targetFolderId", message: "cannot move a folder into itself or its own sub-folder" },
          ]);
        }
        throw error;
      }
      const folders = folderIds.length
        ? await trx
            .updateTable("dam_folders as f")
            .set({ parent_id: targetFolderId, updated_at: new Date(), updated_by: actorId })
            .where("f.id", "in", folderIds)
            .returning([
              "f.id",
              sql<string | null>`(select parent_id from dam_folders o where o.id = f.id)`.as("old"),
            ])
            .execute()
        : [];
      const assets = assetIds.length
        ? await trx
            .updateTable("dam_assets as a")
            .set({ folder_id: targetFolderId, updated_at: new Date(), updated_by: actorId })
            .where("a.id", "in", assetIds)
            .returning([
              "a.id",
              sql<string | null>`(select folder_id from dam_assets o where o.id = a.id)`.as("old"),
            ])
            .execute()
        : [];
      return { folders, assets };
    });
    const folderIdsTouched = [targetFolderId];
    if (result.folders.length) {
      this.publish({
        kind: "folder",
        type: "moved",
        ids: result.folders.map((f) => f.id),
        folderIds: [...folderIdsTouched, ...result.folders.map((f) => f.old)],
        actorId,
      });
    }
    if (result.assets.length) {
      this.publish({
        kind: "asset",
        type: "moved",
        ids: result.assets.map((a) => a.id),
        folderIds: [...folderIdsTouched, ...result.assets.map((a) => a.old)],
        actorId,
      });
    }
    return { folders: result.folders.length, assets: result.assets.length };
  }

  async remove(
    input: { folderIds: string[]; assetIds: string[] },
    actorId: string,
  ): Promise<{ folders: number; assets: number }> {
    const { folderIds, assetIds } = input;
    const result = await this.db.transaction().execute(async (trx) => {
      // Files of every asset below the folders, and of the assets named.
      const { rows: below } = folderIds.length
        ? await sql<{ storage_key: string }>`
            with recursive down(id) as (
              select id from dam_folders where id = any(${folderIds}::uuid[])
              union all
              select f.id from dam_folders f join down on f.parent_id = down.id
            )
            select storage_key from dam_assets where folder_id in (select id from down)`.execute(trx)
        : { rows: [] };
      const assets = assetIds.length
        ? await trx
            .deleteFrom("dam_assets")
            .where("id", "in", assetIds)
            .returning(["id", "storage_key", "folder_id"])
            .execute()
        : [];
      const folders = folderIds.length
        ? await trx
            .deleteFrom("dam_folders")
            .where("id", "in", folderIds)
            .returning(["id", "parent_id"])
            .execute()
        : [];
      return {
        keys: [...below.map((r) => r.storage_key), ...assets.map((a) => a.storage_key)],
        assets,
        folders,
      };
    });
    await this.deleteFiles(result.keys);
    if (result.folders.length) {
      this.publish({
        kind: "folder",
        type: "deleted",
        ids: result.folders.map((f) => f.id),
        folderIds: result.folders.map((f) => f.parent_id),
        actorId,
      });
    }
    if (result.assets.length) {
      this.publish({
        kind: "asset",
        type: "deleted",
        ids: result.assets.map((a) => a.id),
        folderIds: result.assets.map((a) => a.folder_id),
        actorId,
      });
    }
    return { folders: result.folders.length, assets: result.assets.length };
  }

  /** Assets of a selection with their paths inside a zip (folders keep their sub-paths). */
  async zipEntries(input: { folderIds: string[]; assetIds: string[] }) {
    const { folderIds, assetIds } = input;
    const inFolders = folderIds.length
      ? (
          await sql<{ storage_key: string; name: string; mime: string; path: string }>`
            with recursive tree(id, path) as (
              select id, name::text from dam_folders where id = any(${folderIds}::uuid[])
              union all
              select f.id, tree.path || '/' || f.name from dam_folders f join tree on f.parent_id = tree.id
            )
            select a.storage_key, a.name, a.mime, tree.path
            from dam_assets a join tree on a.folder_id = tree.id
            order by tree.path, lower(a.name)`.execute(this.db)
        ).rows
      : [];
    const named = assetIds.length
      ? await this.db
          .selectFrom("dam_assets")
          .select(["storage_key", "name", "mime"])
          .where("id", "in", assetIds)
          .orderBy(sql`lower(name)`)
          .execute()
      : [];
    return [...named.map((a) => ({ ...a, path: "" })), ...inFolders];
  }
}
