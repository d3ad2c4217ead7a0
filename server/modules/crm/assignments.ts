/**
 * Telling people what became theirs (issue 16, notification centre): a client, an
 * opportunity or a task given to someone other than the person who gave it notifies them,
 * in the write's own transaction, so the notification exists exactly when the assignment does.
 */
import type { AfterWriteContext } from "../../resources/rules";
import type { Db } from "./timeline";

export async function notifyAssignment(
  { db, existing, row, actorId, app }: AfterWriteContext,
  field: "owner_id" | "assignee_id",
  what: { title: string; link: string; body?: string },
): Promise<void> {
  const to = row[field] as string | null;
  if (!to || to === actorId || existing?.[field] === to) return;
  await app.notifications.notify(db as Db, {
    userIds: [to],
    kind: "crm.assigned",
    title: what.title,
    body: what.body,
    link: what.link,
    data: { id: row.id, field },
  });
}
