/**
 * Telling people what became theirs (issue 16, notification centre): a client, an
 * opportunity or a task given to someone other than the person who gave it notifies them,
 * in the write's own transaction, so the notification exists exactly when the assignment does.
 * The resources' rules call it, and so do an automation's record actions (issue 27), which
 * write the tables without the rules: a record an automation assigns is news too.
 */
import { clients, opportunities, tasks } from "../../../resources/crm";
import { recordPath } from "../../../src/resources/routes";
import type { AfterWriteContext } from "../../resources/rules";
import type { Db } from "./timeline";

type Row = Record<string, unknown>;

export type AssignableResource = "client" | "opportunity" | "task";

/** Per resource: the field naming who it is given to, and the notification's words and link. */
const ASSIGNMENTS: Readonly<
  Record<
    AssignableResource,
    {
      field: "owner_id" | "assignee_id";
      notice: (row: Row) => { title: string; link: string; body?: string };
    }
  >
> = {
  client: {
    field: "owner_id",
    notice: (row) => ({
      title: `Client for you: ${row.name}`,
      link: recordPath(clients, "show", String(row.id)),
      body: [row.company, row.email].filter(Boolean).join(" · ") || undefined,
    }),
  },
  opportunity: {
    field: "owner_id",
    notice: (row) => ({
      title: `Opportunity for you: ${row.title}`,
      link: recordPath(opportunities, "show", String(row.id)),
    }),
  },
  task: {
    field: "assignee_id",
    notice: (row) => ({
      title: `Task for you: ${row.title}`,
      link: recordPath(tasks, "show", String(row.id)),
      body: row.due_at ? `Due ${new Date(row.due_at as string).toUTCString()}` : undefined,
    }),
  },
};

/** Notifies the person `row` is now given to, unless they gave it themselves or had it already. */
export async function notifyAssignment(
  { db, existing, row, actorId, app }: Omit<AfterWriteContext, "actorId"> & { actorId: string | null },
  resource: AssignableResource,
): Promise<void> {
  const { field, notice } = ASSIGNMENTS[resource];
  const to = row[field] as string | null;
  if (!to || to === actorId || existing?.[field] === to) return;
  await app.notifications.notify(db as Db, {
    userIds: [to],
    kind: "crm.assigned",
    ...notice(row),
    data: { id: row.id, field },
  });
}
