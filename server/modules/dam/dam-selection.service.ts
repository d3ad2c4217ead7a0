/** Selections of folders and assets: move them, delete them (files after the commit), list them for a zip. */
import { sql } from "kysely";
import { badRequest, HttpError } from "../../http/errors";
import { DamStore } from "./dam.store";

export class DamSelection extends DamStore {
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
