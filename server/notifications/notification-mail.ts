/**
 * The mail copy of a notification, for users whose preference asks for its kind by mail
 * (`notifications.mail` in their preferences: an object of kind → true). Mail is opt-in:
 * the bell is the default, mail is "for those who want it".
 */
import { type Kysely, sql } from "kysely";
import {
  NOTIFICATION_KINDS,
  NOTIFICATION_MAIL_PREFERENCE,
  type NotificationKind,
} from "../../schemas/notifications";
import type { Database } from "../db";
import { BoundStatements } from "../db/statements";
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

/** Kept by shape: sent with each notification (server/db/statements.ts). */
const statements = new BoundStatements();

/**
 * The mails to queue for a notification just written for `userIds`: one to each of them whose
 * preference asks for its kind, read in the caller's transaction.
 */
export async function mailsFor(
  db: Kysely<Database>,
  publicUrl: string,
  userIds: readonly string[],
  notice: Notice,
): Promise<OutgoingMail[]> {
  const values = { userIds, key: NOTIFICATION_MAIL_PREFERENCE, kind: notice.kind };
  const { rows } = await db.executeQuery(
    statements.bind("mails for", values, (slot) =>
      db
        .selectFrom("users as u")
        .innerJoin("user_preferences as p", (j) =>
          j.onRef("p.user_id", "=", "u.id").on("p.key", "=", slot<string>("key")),
        )
        .select("u.email")
        .where(sql<boolean>`u.id = any(cast(${slot("userIds")} as uuid[]))`)
        // Any JSON may sit under the key (it is the user's to write): only `true` for the kind counts.
        .where(sql<boolean>`p.value -> ${slot("kind")}::text = 'true'::jsonb`)
        .compile(),
    ),
  );
  const text = mailText(publicUrl, notice);
  return rows.map((r) => ({ to: r.email, subject: notice.title, text }));
}
