/**
 * The notification centre (issue 16): what the bell lists, what the socket pushes, and the
 * kinds a module may send, each of which a user may also ask to get by mail. Shared by the
 * server (server/notifications) and the SPA. Pure data and types.
 */

/** One kind of notification: who sends it, and how the preferences page names it. */
export interface NotificationKindDefinition {
  /** Key of the module the notifications belong to (`MODULE_IDS[module]`): only its users see them. */
  module: string;
  /** The preference's label on the account page ("Task reminders"). */
  label: string;
  /** One line under the label: when such a notification is sent. */
  description: string;
}

/**
 * Every kind, by its key. A module adds its kinds here (a registry, not a switch): `notify`
 * refuses an unknown kind, and the account page lists these as mail preferences.
 */
export const NOTIFICATION_KINDS = {
  "automation.failed": {
    module: "automation",
    label: "Failed automation runs",
    description: "A workflow run stopped on an error.",
  },
  "cms.schedule_done": {
    module: "cms",
    label: "Scheduled publishing done",
    description: "An entry you scheduled was published or unpublished at its time.",
  },
  "cms.schedule_failed": {
    module: "cms",
    label: "Scheduled publishing failed",
    description: "An entry you scheduled could not be published at its time.",
  },
  "crm.assigned": {
    module: "crm",
    label: "Assignments",
    description: "A client, an opportunity or a task was given to you.",
  },
  "crm.reply": {
    module: "crm",
    label: "Replies",
    description: "A client answered a mail or a text message you sent.",
  },
  "crm.sequence_failed": {
    module: "crm",
    label: "Failed sequence steps",
    description: "A step of a sequence could not run for a client of yours.",
  },
  "forms.answer": {
    module: "forms",
    label: "Form answers",
    description: "Someone answered a form you created.",
  },
  "store.proposal_answered": {
    module: "store",
    label: "Proposal answers",
    description: "A client accepted or declined a proposal on your opportunity, or one you made.",
  },
  "store.sync": {
    module: "store",
    label: "Store sync reports",
    description: "A store sync you started finished or failed.",
  },
  "task.reminder": {
    module: "crm",
    label: "Task reminders",
    description: "A task of yours is due.",
  },
} as const satisfies Record<string, NotificationKindDefinition>;

export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

/** Whether a string names a kind of {@link NOTIFICATION_KINDS}. */
export const isNotificationKind = (kind: string): kind is NotificationKind =>
  Object.hasOwn(NOTIFICATION_KINDS, kind);

/** Longest title and body a notification keeps (a bell shows one line and a short text). */
export const NOTIFICATION_TITLE_MAX = 200;
export const NOTIFICATION_BODY_MAX = 2000;
export const NOTIFICATION_LINK_MAX = 500;
/** Most notifications one page of the list holds. */
export const NOTIFICATIONS_PAGE_SIZE_MAX = 100;

/**
 * Where a notification leads: a path of the admin app (under `/manage`), starting with one
 * slash, so a link can never send the reader to another site (`//evil.example`).
 *
 * @example
 * isAppLink("/crm/clients/7"); // true
 * isAppLink("//evil.example"); // false
 */
export const isAppLink = (link: string): boolean =>
  link.length <= NOTIFICATION_LINK_MAX && /^\/(?![/\\])[^\s]*$/.test(link);

/** A notification as the API answers it. */
export interface NotificationRecord {
  id: string;
  kind: string;
  moduleID: number;
  title: string;
  body: string;
  /** SPA path under `/manage`, or null when there is nothing to open. */
  link: string | null;
  data: Record<string, unknown>;
  created_at: string;
  /** When the user read it; null while unread. */
  read_at: string | null;
}

/** `GET /api/notifications`: the list contract's answer, plus the unread count for the badge. */
export interface NotificationList {
  data: NotificationRecord[];
  total: number;
  unread: number;
}

/** `GET /api/notifications/preferences`: mail per kind, for the kinds of the user's modules. */
export interface NotificationPreferences {
  kinds: Array<{ kind: NotificationKind; label: string; description: string; mail: boolean }>;
}

/** `PUT /api/notifications/preferences`: mail on or off per kind; kinds left out keep their setting. */
export interface NotificationPreferencesWrite {
  mail: Partial<Record<NotificationKind, boolean>>;
}

/**
 * The user preference (schemas/preferences.ts) that holds the mail choices: an object of
 * kind → true for the kinds to mail. Kept there, with the user's other preferences.
 */
export const NOTIFICATION_MAIL_PREFERENCE = "notifications.mail";

/**
 * `notification` on the socket, to every open page of one user: a new one (the badge goes up,
 * an open panel shows it), or some read or deleted in another tab (`all`: every one).
 */
export type NotificationMessage =
  | { type: "created"; notification: NotificationRecord }
  | { type: "read"; ids: string[] | "all" }
  | { type: "deleted"; ids: string[] };
