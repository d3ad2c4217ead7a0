/**
 * What the DAM services share: the database, the `/dam` socket's change feed, deleting files
 * no row uses any more, and the row lookups and checks their writes start with.
 */
import { sql, type Transaction } from "kysely";
import type { DamChange } from "../../../schemas/dam";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { badRequest, notFound } from "../../http/errors";
import { renditionKeys } from "../../storage/serve";
import type { AssetRecord, Db, FolderRow } from "./dam.records";

export class DamStore {
  constructor(protected readonly ctx: AppContext) {}

  protected get db(): Db {
    return this.ctx.db;
  }

  protected publish(change: Omit<DamChange, "folderIds"> & { folderIds: (string | null)[] }) {
    this.ctx.damEvents.publish({ ...change, folderIds: [...new Set(change.folderIds)] });
  }

  /** Deletes stored files (and their renditions) that no row uses any more; never fails a request. */
  protected async deleteFiles(keys: string[]) {
    if (!keys.length) return;
    try {
      await this.ctx.storage.delete(keys.flatMap((k) => [k, ...renditionKeys(k)]));
    } catch (error) {
      this.ctx.log.error({ err: error, keys: keys.length }, "could not delete stored files");
    }
  }

  protected async folderRow(db: Db, id: string): Promise<FolderRow> {
    const row = await db.selectFrom("dam_folders").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("Folder not found");
    return row;
  }

  protected async assertParent(db: Db, parentId: string | null | undefined, field = "parentId") {
    if (!parentId) return;
    const found = await db
      .selectFrom("dam_folders")
      .select("id")
      .where("id", "=", parentId)
      .executeTakeFirst();
    if (!found) throw badRequest("The folder does not exist", [{ field, message: "does not exist" }]);
  }

  /** Refuses to move folders into themselves or their own descendants (call inside the lock). */
  protected async assertNoCycle(db: Db, folderIds: string[], targetId: string | null) {
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
  protected lockFolders(trx: Transaction<Database>) {
    return sql`lock table dam_folders in share row exclusive mode`.execute(trx);
  }

  protected async assetRow(db: Db, id: string): Promise<AssetRecord> {
    const row = await db.selectFrom("dam_assets").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("Asset not found");
    return row;
  }
}
