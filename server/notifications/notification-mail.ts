/**
 * The mail copy of a notification, for users whose preference asks for its kind by mail
 * (`notifications.mail` in their preferences: an object of kind → true). Mail is opt-in:
 * the bell is the default, mail is "for those who want it".
 */
import { type RawBuilder, sql } from "kysely";
import {
  NOTIFICATION_KINDS,
  NOTIFICATION_MAIL_PREFERENCE,
  type NotificationKind,
} from "../../schemas/notifications";
import type { OutgoingMail } from "../mail/mailer";

interface Notice {
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
}

/** Where the account page (and its notification settings) lives. */
const ACCOUNT_PATH = "/account";

/**
 * The mail's text: the notification, a link to what it is about, and how to stop such mails.
 *
 * @example
 * mailText("https://atelier.example", { kind: "crm.reply", title: "Ann replied", body: "Thanks!", link: "/crm/clients/7" });
 */
export function mailText(publicUrl: string, notice: Notice): string {
  const app = `${publicUrl}/manage`;
  const { label } = NOTIFICATION_KINDS[notice.kind];
  return [
    notice.title,
    ...(notice.body ? ["", notice.body] : []),
    ...(notice.link ? ["", `Open it in Atelier: ${app}${notice.link}`] : []),
    "",
    "--",
    `You get this mail because you asked for mail about ${label.toLowerCase()}.`,
    `To change that, open My account in Atelier: ${app}${ACCOUNT_PATH}`,
  ].join("\n");
}

/**
 * The address of the user whose id is in `userId` (a column of the statement it goes in) when
 * their preference asks for `kind` by mail, else null: a part of the statement that writes the
 * notifications (notify.ts), so that reading who wants mail costs no statement of its own.
 */
export function mailAddressIfWanted(userId: string, kind: unknown): RawBuilder<string | null> {
  // Any JSON may sit under the key (it is the user's to write): only `true` for the kind counts.
  return sql<string | null>`(
    select mu.email from users as mu
      join user_preferences as mp on mp.user_id = mu.id and mp.key = ${sql.lit(NOTIFICATION_MAIL_PREFERENCE)}
     where mu.id = ${sql.ref(userId)}
       and mp.value -> ${kind}::text = 'true'::jsonb)`;
}

/** The mails of a notification to the addresses that asked for its kind (mailAddressIfWanted). */
export function mailsTo(publicUrl: string, addresses: readonly string[], notice: Notice): OutgoingMail[] {
  if (!addresses.length) return [];
  const text = mailText(publicUrl, notice);
  return addresses.map((to) => ({ to, subject: notice.title, text }));
}
