/**
 * A store sync's report, told to the person who started it (notification kind `store.sync`,
 * issue 27): its counts when it finished, why when it failed. Written in the transaction that
 * ends the sync. A sync whose starter can no longer read it (account deleted or disabled, the
 * module taken away) is told to the Online store module's administrators instead.
 */
import type { AppContext } from "../../context";
import type { AnyDb } from "../../resources/rules";

type Db = AppContext["db"];

/**
 * Where a sync's report is shown: the store page (`MODULE_SCREENS.store` in
 * src/layout/app-routes.tsx), which opens the sync named by `?sync=`.
 */
export const syncLink = (syncId: string) => `/store/connections?sync=${encodeURIComponent(syncId)}`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Tells the sync's starter that it ended; call in the transaction that ended it. */
export async function syncEnded(ctx: AppContext, db: AnyDb, syncId: string): Promise<void> {
  const sync = await db
    .selectFrom("store_syncs as s")
    .leftJoin("store_connections as c", "c.id", "s.connection_id")
    .select([
      "s.id",
      "s.status",
      "s.created",
      "s.updated",
      "s.skipped",
      "s.conflicts",
      "s.error",
      "s.requested_by",
      "c.name as store",
    ])
    .where("s.id", "=", syncId)
    .executeTakeFirst();
  if (!sync || (sync.status !== "finished" && sync.status !== "failed")) return;
  const store = sync.store ? `"${sync.store}"` : "a removed store";
  const failed = sync.status === "failed";
  const counts = [
    `${Number(sync.created)} created`,
    `${Number(sync.updated)} updated`,
    plural(Number(sync.conflicts), "conflict") +
      (Number(sync.conflicts) ? " (the store's version kept)" : ""),
    `${Number(sync.skipped)} skipped`,
  ].join(", ");
  const notice = {
    kind: "store.sync" as const,
    title: failed ? `The sync of ${store} failed` : `The sync of ${store} finished`,
    body: failed
      ? `${(sync.error ?? "The sync stopped").replace(/\.$/, "")}. Done before it stopped: ${counts}.`
      : `${counts}.`,
    link: syncLink(String(sync.id)),
    data: { syncId: sync.id, status: sync.status },
    dedupeKey: `store.sync:${sync.id}`,
  };
  const to = sync.requested_by ? String(sync.requested_by) : null;
  const told = to ? await ctx.notifications.notify(db as unknown as Db, { ...notice, userIds: [to] }) : null;
  if (!told?.userIds.length)
    await ctx.notifications.notifyModuleUsers(db as unknown as Db, { ...notice, adminsOnly: true });
}
