/**
 * Telling whoever scheduled an entry what became of it (issue 27): `cms.schedule_done` when a
 * scheduled publish or unpublish happened, `cms.schedule_failed` when it could not (the entry no
 * longer fits its type, or it was deleted). The person told is the one who set the schedule
 * (kept in the job's payload); for a schedule set before that was kept, the entry's last editor,
 * then its author. When none of them can read it any more, the CMS's administrators are told,
 * so a failure is never silent.
 */
import { recordPath } from "../../../src/resources/routes";
import type { AppContext } from "../../context";
import { HttpError } from "../../http/errors";
import type { NotifyInput } from "../../notifications";
import type { AnyDb } from "../../resources/rules";
import type { EntryRow } from "./entries.service";
import type { ContentType } from "./type-registry";

type Db = AppContext["db"];

/** A scheduled publish or unpublish: the payload of its job (entry-lifecycle.ts). */
export interface SchedulePayload {
  typeId: string;
  entryId: string;
  action: "publish" | "unpublish";
  /** The time it was set for: a job whose time was changed since does nothing. */
  at: string;
  /** Who set it: told when it is done or fails (schedule-notices.ts). Absent in older jobs. */
  by?: string;
}

/** The entry's screen: `/cms/entries/<api name>/show/<id>`. */
export const entryLink = (type: ContentType, id: string) =>
  recordPath({ name: `entries/${type.apiName}`, parent: "cms" }, "show", id);

/** How a person names the entry: its label field's value, else its type's name. */
export function entryLabel(type: ContentType, row: Pick<EntryRow, "data">): string {
  const data = (typeof row.data === "string" ? JSON.parse(row.data) : row.data) as Record<string, unknown>;
  const label = data?.[type.schema["x-label"]];
  return typeof label === "string" && label.trim() ? `"${label.trim()}"` : `A ${type.name} entry`;
}

/** Who hears about a schedule: the person who set it, else the entry's editor or author. */
const scheduler = (payload: SchedulePayload, row: Partial<Pick<EntryRow, "updated_by" | "created_by">>) =>
  [payload.by, row.updated_by, row.created_by].find((u): u is string => typeof u === "string" && u !== "");

async function tell(
  ctx: AppContext,
  db: AnyDb,
  to: string | undefined,
  notice: Omit<NotifyInput, "userIds">,
) {
  const told = to ? await ctx.notifications.notify(db as unknown as Db, { ...notice, userIds: [to] }) : null;
  if (!told?.userIds.length)
    await ctx.notifications.notifyModuleUsers(db as unknown as Db, { ...notice, adminsOnly: true });
}

/** A scheduled publish or unpublish happened; `db` is its transaction where it has one. */
export async function scheduleDone(
  ctx: AppContext,
  db: AnyDb,
  type: ContentType,
  row: EntryRow,
  payload: SchedulePayload,
): Promise<void> {
  const label = entryLabel(type, row);
  await tell(ctx, db, scheduler(payload, row), {
    kind: "cms.schedule_done",
    title: `${label} was ${payload.action === "publish" ? "published" : "unpublished"} as scheduled`,
    body:
      payload.action === "publish"
        ? `This ${type.name} entry is live now.`
        : `This ${type.name} entry is no longer public.`,
    link: entryLink(type, String(row.id)),
    data: { typeId: type.id, entryId: row.id, action: payload.action, at: payload.at },
    dedupeKey: `cms.schedule:${row.id}:${payload.action}:${payload.at}`,
  });
}

/** Why a scheduled action failed, in the words the editor would have seen. */
function reasonOf(error: unknown): string {
  if (!(error instanceof HttpError)) return "The server could not do it, after several tries";
  const fields = (error.details ?? []).map((d) => d.message).filter((m) => m !== error.message);
  return [error.message, ...fields].map((m) => m.replace(/\.$/, "")).join(". ");
}

/** A scheduled publish or unpublish could not be done (its last try); `db`: the transaction ending it. */
export async function scheduleFailed(
  ctx: AppContext,
  db: AnyDb,
  type: ContentType,
  row: EntryRow,
  payload: SchedulePayload,
  error: unknown,
): Promise<void> {
  const label = entryLabel(type, row);
  await tell(ctx, db, scheduler(payload, row), {
    kind: "cms.schedule_failed",
    title: `${label} could not be ${payload.action === "publish" ? "published" : "unpublished"} as scheduled`,
    body: `${reasonOf(error)}. Open the entry to fix it, then ${payload.action} it by hand.`,
    link: entryLink(type, String(row.id)),
    data: { typeId: type.id, entryId: row.id, action: payload.action, at: payload.at },
    dedupeKey: `cms.schedule_failed:${row.id}:${payload.action}:${payload.at}`,
  });
}
