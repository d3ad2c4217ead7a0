/**
 * The `tasks` resource's rules: marking a task done stamps when; a task with a reminder time
 * gets a reminder job due then (a later change of the time leaves the old job to find it
 * stale); a task given to someone notifies them; a client's task shows on their timeline.
 */

import type { AppContext } from "../../context";
import type { ResourceRules } from "../../resources/rules";
import { notifyAssignment } from "./assignments";
import { addTimeline, type Db } from "./timeline";

export const TASK_REMINDER_JOB = "crm.task.reminder";

interface ReminderPayload {
  taskId: string;
  remindAt: string;
}

const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);

export const taskRules: ResourceRules = {
  async beforeWrite({ existing, values, set }) {
    if (!("done" in values) || values.done === Boolean(existing?.done)) return;
    set.done_at = values.done ? new Date() : null;
  },

  async afterWrite(context) {
    const { db, existing, row, actorId, app } = context;
    const remindAt = iso(row.remind_at);
    if (remindAt && !row.done && remindAt !== iso(existing?.remind_at))
      await app.jobs.enqueue<ReminderPayload>(
        TASK_REMINDER_JOB,
        { taskId: String(row.id), remindAt },
        { db: db as Db, runAt: new Date(remindAt), key: `${row.id}:${remindAt}` },
      );
    await notifyAssignment(context, "task");
    if (!row.client_id) return;
    const created = !existing;
    const finished = Boolean(row.done) && !existing?.done;
    if (!created && !finished) return;
    await addTimeline(db as Db, [
      {
        clientId: String(row.client_id),
        kind: "task",
        title: finished ? `Done: ${row.title}` : `Task: ${row.title}`,
        body: created ? ((row.notes as string | null) ?? null) : null,
        data: { taskId: row.id, dueAt: iso(row.due_at), done: Boolean(row.done) },
        refId: String(row.id),
        actorId,
      },
    ]);
  },
};

/** Sends a task's reminder when it falls due, unless the task is done, gone or moved. */
export function registerTaskReminders(ctx: AppContext) {
  ctx.jobs.register<ReminderPayload>(TASK_REMINDER_JOB, async ({ payload }) => {
    await ctx.db.transaction().execute(async (trx) => {
      const task = await trx
        .selectFrom("crm_tasks")
        .select(["id", "title", "done", "remind_at", "due_at", "assignee_id", "created_by", "client_id"])
        .where("id", "=", payload.taskId)
        .executeTakeFirst();
      if (!task || task.done || iso(task.remind_at) !== payload.remindAt) return;
      const to = task.assignee_id ?? task.created_by;
      if (!to) return;
      await ctx.notifications.notify(trx, {
        userIds: [to],
        kind: "task.reminder",
        title: `Reminder: ${task.title}`,
        body: task.due_at ? `Due ${new Date(task.due_at).toUTCString()}` : undefined,
        link: task.client_id ? `/crm/clients/show/${task.client_id}` : `/crm/tasks/show/${task.id}`,
        data: { taskId: task.id },
        dedupeKey: `task.reminder:${task.id}:${payload.remindAt}`,
      });
    });
  });
}
