/**
 * A user's own notifications, as the bell reads and changes them. Every query is scoped by
 * the caller's user id and the modules they hold now (their session's grants): another user's
 * notification, or one of a module no longer granted, is "not found", never shown.
 */
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { NotificationList, NotificationRecord } from "../../schemas/notifications";
import type { Principal } from "../auth/principal";
import type { Database } from "../db";
import type { NotificationsTable } from "../db/types-notifications";
import { notFound } from "../http/errors";
import { type ListQuery, listPage } from "../http/list-query";
import { toNotification } from "./notification-records";

export const NOT_FOUND_MESSAGE = "Notification not found";

export interface InboxQuery extends ListQuery {
  /** Only the unread ones. */
  unread?: boolean;
}

type Mine = SelectQueryBuilder<Database & { n: NotificationsTable }, "n", object>;

/** The caller's notifications of the modules they hold (`n`). */
function mine(db: Kysely<Database>, who: Principal): Mine {
  const q = db.selectFrom("notifications as n").where("n.user_id", "=", who.userId);
  const modules = [...who.modules];
  // No module, nothing to see (and `in ()` is not SQL).
  return modules.length ? q.where("n.module_id", "in", modules) : q.where(sql<boolean>`false`);
}

async function unreadCount(db: Kysely<Database>, who: Principal): Promise<number> {
  const { count } = await mine(db, who)
    .where("n.read_at", "is", null)
    .select(sql<number>`count(*)::int`.as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The list contract (newest first by default), with the unread count for the badge. */
export async function listNotifications(
  db: Kysely<Database>,
  who: Principal,
  query: InboxQuery,
): Promise<NotificationList> {
  const { unread, ...list } = query;
  let q = mine(db, who).selectAll("n");
  if (unread) q = q.where("n.read_at", "is", null);
  const [page, count] = await Promise.all([
    listPage(db, q, list, {
      table: "n",
      defaultSort: "-created_at",
      sortFields: ["created_at", "read_at", "kind"],
      filterFields: { kind: "string", created_at: "date", read_at: "date" },
      search: ["title", "body"],
    }),
    unreadCount(db, who),
  ]);
  return { data: page.rows.map(toNotification), total: page.total, unread: count };
}

export { unreadCount };

/** Marks one read (the first reading's time is kept); 404 when it is not the caller's to see. */
export async function markRead(
  db: Kysely<Database>,
  who: Principal,
  id: string,
): Promise<NotificationRecord> {
  const row = await db
    .updateTable("notifications")
    .set({ read_at: sql`coalesce(read_at, now())` })
    .where("id", "in", mine(db, who).select("n.id").where("n.id", "=", id))
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND_MESSAGE);
  return toNotification(row);
}

/** Marks every unread one the caller can see read; answers how many. */
export async function markAllRead(db: Kysely<Database>, who: Principal): Promise<number> {
  const ids = mine(db, who).select("n.id").where("n.read_at", "is", null);
  const result = await db
    .updateTable("notifications")
    .set({ read_at: sql`now()` })
    .where("id", "in", ids)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes one; 404 when it is not the caller's to see. */
export async function deleteNotification(db: Kysely<Database>, who: Principal, id: string): Promise<void> {
  const result = await db
    .deleteFrom("notifications")
    .where("id", "in", mine(db, who).select("n.id").where("n.id", "=", id))
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound(NOT_FOUND_MESSAGE);
}
