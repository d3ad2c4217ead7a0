/** Folders of the asset manager: list, create, details (breadcrumb and totals), rename and move. */
import { sql } from "kysely";
import type { DamFolder, DamFolderDetails, DamPathItem } from "../../../schemas/dam";
import { pageWithTotal } from "../../http/list-page";
import {
  type FolderListQuery,
  folderName,
  isUniqueViolation,
  type ListAnswer,
  likeOf,
  NAME_TAKEN,
  orderOf,
  toFolder,
} from "./dam.records";
import { DamStore } from "./dam.store";

export class DamFolders extends DamStore {
  async list(query: FolderListQuery): Promise<ListAnswer<DamFolder>> {
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
    const { rows, total } = await pageWithTotal(
      this.db,
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
        .orderBy(order),
      { limit: pageSize, offset: (page - 1) * pageSize },
    );
    return {
      data: rows.map((row) => ({ ...toFolder(row), hasChildren: Boolean(row.has_children) })),
      total,
    };
  }

  async create(input: { name: string; parentId?: string | null }, actorId: string): Promise<DamFolder> {
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

  async details(id: string): Promise<DamFolderDetails> {
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

  async exists(id: string): Promise<boolean> {
    return Boolean(
      await this.db.selectFrom("dam_folders").select("id").where("id", "=", id).executeTakeFirst(),
    );
  }

  async update(
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
}
