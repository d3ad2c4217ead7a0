/** Notification rows as the API answers them, and who may see one. */
import { type ExpressionBuilder, type Selectable, sql } from "kysely";
import type { NotificationRecord } from "../../schemas/notifications";
import type { Database } from "../db";
import type { NotificationsTable } from "../db/types-notifications";

/** A row as the API answers it. */
export function toNotification(row: Selectable<NotificationsTable>): NotificationRecord {
  return {
    id: row.id,
    kind: row.kind,
    moduleID: row.module_id,
    title: row.title,
    body: row.body,
    link: row.link,
    data: typeof row.data === "string" ? JSON.parse(row.data) : row.data,
    created_at: new Date(row.created_at).toISOString(),
    read_at: row.read_at === null ? null : new Date(row.read_at).toISOString(),
  };
}

/**
 * Whether the notification's user holds its module now (`n` aliases `notifications`): one sent
 * before a grant was revoked stays hidden until the grant is back.
 */
export const visibleTo = (eb: ExpressionBuilder<Database & { n: NotificationsTable }, "n">) =>
  eb.exists(
    eb
      .selectFrom("user_modules as um")
      .select(sql`1`.as("one"))
      .whereRef("um.user_id", "=", "n.user_id")
      .whereRef("um.module_id", "=", "n.module_id"),
  );
