/**
 * Sending notifications (issue 16): the service modules call when something happens to a
 * user — a task falls due, a client replies, a record is assigned, an automation run fails.
 *
 * `notify(db, input)` works inside the caller's transaction: the rows, their mails (in the
 * outbox) and the job that pushes them to open pages are all written there, so a notification
 * exists only if its cause commits, and a rolled-back cause leaves nothing behind. The push
 * job runs after the commit (the queue cannot see it before) on whichever instance takes it,
 * and emits to the user's socket room through the socket.io adapter, which reaches the
 * user's pages on every instance (server/realtime/cluster-adapter.ts).
 */
import { type Kysely, sql } from "kysely";
import { MODULE_IDS } from "../../resources/modules";
import { ROLES } from "../../schemas/auth";
import {
  isAppLink,
  isNotificationKind,
  NOTIFICATION_BODY_MAX,
  NOTIFICATION_KINDS,
  NOTIFICATION_TITLE_MAX,
  type NotificationKind,
  type NotificationMessage,
} from "../../schemas/notifications";
import { UUID } from "../../schemas/uuid";
import { truncate } from "../../src/lib/text";
import type { CoreContext } from "../core-context";
import type { Database } from "../db";
import { BoundStatements } from "../db/statements";
import { createEvents, type Events } from "../realtime/events";
import { mailAddressIfWanted, mailsTo } from "./notification-mail";
import { toNotification, visibleTo } from "./notification-records";

export const PUSH_JOB = "notifications.push";

/** What the notification centre uses of the app (app.ts hands it the AppContext, which has all of it). */
export type NotificationDeps = Pick<CoreContext, "config" | "db" | "jobs" | "mailer">;

export interface NotifyInput {
  /** Who to tell. Those without the kind's module (or disabled) are left out. */
  userIds: readonly string[];
  kind: NotificationKind;
  /**
   * The module the notification belongs to; when given, it must be the kind's module
   * (NOTIFICATION_KINDS), which is what is used anyway.
   */
  moduleID?: number;
  /** One line; longer than NOTIFICATION_TITLE_MAX is cut with an ellipsis. */
  title: string;
  /** A short text under the title (cut past NOTIFICATION_BODY_MAX). */
  body?: string;
  /** Where a click leads: a path of the admin app, such as `/crm/clients/<id>` (no `/manage`). */
  link?: string | null;
  /** Anything the module wants back with it (ids); JSON. */
  data?: Record<string, unknown>;
  /**
   * Notify each user once for this key, however often the caller runs (a job retried after a
   * crash, a reminder checked twice). Unique per user, e.g. `task.reminder:<taskId>:<dueAt>`.
   */
  dedupeKey?: string;
}

/** How a notification reaches its users' open pages once written (NotificationService.notify). */
export interface NotifyOptions {
  /**
   * "job" (the default): a job queued in the same transaction pushes it after the commit, on
   * whichever instance takes it. "caller": the caller calls `push()` of the result once its
   * transaction committed, as it publishes its own live events then (a form's batch of
   * answers: a job a batch cost three statements of the batch's twenty).
   */
  push?: "job" | "caller";
}

export interface NotifyResult {
  /** The notifications written, one per user told. */
  ids: string[];
  /** The users told (those given, less those without the module, disabled, or told before for dedupeKey). */
  userIds: string[];
  /** How many of them get it by mail too (their preference asks for this kind). */
  mailed: number;
  /** With `push: "caller"`: pushes the notifications to open pages; call it after the commit. */
  push(): Promise<void>;
}

const NOTHING_TO_PUSH = async () => {};

/** One live message for one user's open pages. */
export interface NotificationDelivery {
  userId: string;
  message: NotificationMessage;
}

/** Text PostgreSQL stores: no NUL characters (refused in `text` and in `jsonb`). */
const storable = (text: string) => text.replaceAll("\u0000", "");

/** The moduleID a kind belongs to. */
export function moduleOfKind(kind: NotificationKind): number {
  const moduleID = MODULE_IDS[NOTIFICATION_KINDS[kind].module];
  if (moduleID === undefined) throw new Error(`Notification kind ${kind} names an unknown module`);
  return moduleID;
}

/**
 * The input checked and shaped as stored. A mistake here is the calling module's bug, so it
 * throws a plain Error (a 500 for a route), before any SQL that would abort the caller's
 * transaction; text that is merely long is cut instead, since it may come from outside
 * (a client's mail subject).
 */
function prepare(input: NotifyInput) {
  if (!isNotificationKind(input.kind)) throw new Error(`Unknown notification kind: ${String(input.kind)}`);
  const moduleID = moduleOfKind(input.kind);
  if (input.moduleID !== undefined && input.moduleID !== moduleID) {
    throw new Error(`Notification kind ${input.kind} belongs to module ${moduleID}, not ${input.moduleID}`);
  }
  const userIds = [...new Set(input.userIds)];
  const bad = userIds.find((id) => !UUID.test(id));
  if (bad !== undefined) throw new Error(`Not a user id: ${JSON.stringify(bad)}`);
  const title = truncate(storable(input.title).replace(/\s+/g, " ").trim(), NOTIFICATION_TITLE_MAX);
  if (!title) throw new Error("A notification needs a title");
  const link = input.link ?? null;
  if (link !== null && !isAppLink(link)) throw new Error(`Not a path of the admin app: ${link}`);
  const dedupeKey = input.dedupeKey ?? null;
  if (dedupeKey !== null && (dedupeKey.length < 1 || dedupeKey.length > 200)) {
    throw new Error("A dedupe key has 1 to 200 characters");
  }
  return {
    userIds,
    kind: input.kind,
    moduleID,
    title,
    body: truncate(storable(input.body ?? "").trim(), NOTIFICATION_BODY_MAX),
    link,
    // `\u0000` in JSON text is refused by jsonb: dropped like NUL in text.
    data: JSON.stringify(input.data ?? {}).replaceAll("\\u0000", ""),
    dedupeKey,
  };
}

/** The statements each notification sends, kept by shape (server/db/statements.ts). */
const statements = new BoundStatements();

/**
 * The notification centre's sending side, one per app (`ctx.notifications`).
 *
 * @example
 * await db.transaction().execute(async (trx) => {
 *   const task = await createTask(trx, ...);
 *   await ctx.notifications.notify(trx, {
 *     userIds: [task.owner_id],
 *     kind: "crm.assigned",
 *     title: `New task: ${task.title}`,
 *     link: `/crm/tasks/${task.id}`,
 *     data: { taskId: task.id },
 *   });
 * });
 */
export class NotificationService {
  /** Messages for users' open pages; the realtime layer emits them to each user's room. */
  readonly live: Events<NotificationDelivery> = createEvents<NotificationDelivery>();

  constructor(private readonly ctx: NotificationDeps) {
    ctx.jobs.register<{ ids: string[] }>(PUSH_JOB, (job) => this.push(job.payload.ids), {
      concurrency: 2,
      // A push minutes late is of little use; the bell reads the rows anyway.
      maxAttempts: 3,
    });
  }

  /**
   * Notifies users, in `db` (the caller's transaction, or the database for a write of its own):
   * one row per user who holds the kind's module, a mail to those who asked for this kind by
   * mail, and a live push to their open pages once it commits.
   */
  async notify(db: Kysely<Database>, input: NotifyInput, options: NotifyOptions = {}): Promise<NotifyResult> {
    const n = prepare(input);
    const none = { ids: [], userIds: [], mailed: 0, push: NOTHING_TO_PUSH };
    if (!n.userIds.length) return none;
    // One statement: only active users granted the module, and (with a key) not told before;
    // with the address of each who asked for this kind by mail. Kept by shape: a batch of form
    // answers sends it (bench:forms).
    const { rows: inserted } = await db.executeQuery(
      statements.bind("notify", n, (slot) => {
        const recipients = db
          .selectFrom("users as u")
          .innerJoin("user_modules as um", (j) =>
            j.onRef("um.user_id", "=", "u.id").on("um.module_id", "=", slot<number>("moduleID")),
          )
          .where(sql<boolean>`u.id = any(cast(${slot("userIds")} as uuid[]))`)
          .where("u.active", "=", sql.lit(true))
          .select([
            "u.id as user_id",
            sql<string>`${slot("kind")}::text`.as("kind"),
            sql<number>`${slot("moduleID")}::int`.as("module_id"),
            sql<string>`${slot("title")}::text`.as("title"),
            sql<string>`${slot("body")}::text`.as("body"),
            sql<string | null>`${slot("link")}::text`.as("link"),
            sql<string>`${slot("data")}::jsonb`.as("data"),
            sql<string | null>`${slot("dedupeKey")}::text`.as("dedupe_key"),
          ]);
        return db
          .with("told", (w) =>
            w
              .insertInto("notifications")
              .columns(["user_id", "kind", "module_id", "title", "body", "link", "data", "dedupe_key"])
              .expression(recipients)
              .onConflict((oc) =>
                oc.columns(["user_id", "dedupe_key"]).where("dedupe_key", "is not", null).doNothing(),
              )
              .returning(["id", "user_id"]),
          )
          .selectFrom("told")
          .select([
            "told.id",
            "told.user_id",
            mailAddressIfWanted("told.user_id", slot("kind")).as("mail_to"),
          ])
          .compile();
      }),
    );
    if (!inserted.length) return none;
    const ids = inserted.map((r) => r.id);
    const userIds = inserted.map((r) => r.user_id);
    const mails = mailsTo(
      this.ctx.config.publicUrl,
      inserted.flatMap((r) => (r.mail_to ? [r.mail_to] : [])),
      n,
    );
    await this.ctx.mailer.queue(mails, db);
    if (options.push === "caller") return { ids, userIds, mailed: mails.length, push: () => this.push(ids) };
    await this.ctx.jobs.enqueue(PUSH_JOB, { ids }, { db });
    return { ids, userIds, mailed: mails.length, push: NOTHING_TO_PUSH };
  }

  /**
   * Notifies every active user granted the kind's module, or only its administrators (role
   * admin) with `adminsOnly` — for events that concern a module rather than a person, such
   * as a failed automation run.
   *
   * @example
   * await ctx.notifications.notifyModuleUsers(trx, {
   *   kind: "automation.failed",
   *   adminsOnly: true,
   *   title: `Workflow "${flow.name}" failed`,
   *   body: error.message,
   *   link: `/automation/flows/${flow.id}/runs/${run.id}`,
   *   dedupeKey: `automation.failed:${run.id}`,
   * });
   */
  async notifyModuleUsers(
    db: Kysely<Database>,
    input: Omit<NotifyInput, "userIds"> & { adminsOnly?: boolean },
    options: NotifyOptions = {},
  ): Promise<NotifyResult> {
    const { adminsOnly, ...rest } = input;
    if (!isNotificationKind(rest.kind)) throw new Error(`Unknown notification kind: ${String(rest.kind)}`);
    let users = db
      .selectFrom("users as u")
      .innerJoin("user_modules as um", "um.user_id", "u.id")
      .where("um.module_id", "=", moduleOfKind(rest.kind))
      .where("u.active", "=", true)
      .select("u.id");
    if (adminsOnly) users = users.where("u.role", "=", ROLES.admin);
    const rows = await users.execute();
    return this.notify(db, { ...rest, userIds: rows.map((r) => r.id) }, options);
  }

  /** Tells a user's open pages about a change they made elsewhere (read, deleted). */
  tell(userId: string, message: NotificationMessage): void {
    this.live.publish({ userId, message });
  }

  /**
   * The push job: the committed notifications, still unread and still visible to their user
   * (a grant revoked in between hides them), to each user's open pages. Then the mailer, whose
   * mails committed with them, is woken rather than left to its next poll.
   */
  private async push(ids: readonly string[]): Promise<void> {
    if (ids.length) {
      const { rows } = await this.ctx.db.executeQuery(
        statements.bind("push", { ids }, (slot) =>
          this.ctx.db
            .selectFrom("notifications as n")
            .selectAll("n")
            .where(sql<boolean>`n.id = any(cast(${slot("ids")} as uuid[]))`)
            .where("n.read_at", "is", null)
            .where(visibleTo)
            .compile(),
        ),
      );
      for (const row of rows) {
        this.tell(row.user_id, { type: "created", notification: toNotification(row) });
      }
    }
    this.ctx.mailer.wake();
  }
}
