/**
 * Set-password links in the mail outbox. Without SMTP the outbox is how a reset or invite link
 * reaches its user, so an admin may read a live link there; a used or expired one (and one
 * already delivered over SMTP) is of no use to anybody and is scrubbed from the stored row.
 *
 * The mailer spots the link in any mail it stores (whichever flow sent it) and keeps it in
 * `secret_link` with the hash of its token, so the row can be matched with `password_resets`.
 */
import { type Kysely, sql } from "kysely";
import { hashToken } from "../auth/tokens";
import type { Database } from "../db";

/** What a dead link reads as in the stored mail. */
export const LINK_GONE = "[link used or expired]";

/** A set-password link (both forms of the reset page); the last segment is the token. */
const SECRET_LINK = /https?:\/\/[^\s"'<>]+\/manage\/resetpassword\/(?:\d+\/)?([A-Za-z0-9_-]+)/;

export interface SecretColumns {
  secret_link: string | null;
  secret_hash: string | null;
  secret_expires_at: Date | null;
}

/** The secret columns of a mail about to be stored (all null when it carries no link). */
export async function secretColumnsOf(db: Kysely<Database>, text: string): Promise<SecretColumns> {
  const match = SECRET_LINK.exec(text);
  if (!match) return { secret_link: null, secret_hash: null, secret_expires_at: null };
  const hash = hashToken(match[1]);
  // The link row may sit in a transaction not committed yet (an invite): then the expiry is
  // read from password_resets when the outbox is read.
  const reset = await db
    .selectFrom("password_resets")
    .select("expires_at")
    .where("token_hash", "=", hash)
    .executeTakeFirst();
  return { secret_link: match[0], secret_hash: hash, secret_expires_at: reset?.expires_at ?? null };
}

/**
 * Scrubs every stored mail whose link is dead: used, expired, or already delivered over SMTP.
 * Run before the outbox is read and in the transaction that uses a link.
 */
export async function scrubDeadLinks(db: Kysely<Database>, only?: { userId: string }): Promise<number> {
  // One user's links only (a reset in progress): its transaction locks no other mail rows.
  const scope = only
    ? sql`and m.secret_hash in (select token_hash from password_resets where user_id = ${only.userId})`
    : sql``;
  const result = await sql`
    update mail_outbox m set
      text_body = replace(m.text_body, m.secret_link, ${LINK_GONE}),
      html_body = replace(m.html_body, m.secret_link, ${LINK_GONE}),
      secret_link = null,
      secret_hash = null,
      secret_expires_at = null
    where m.secret_link is not null and (
      m.status = 'sent'
      or m.secret_expires_at <= now()
      or exists (
        select 1 from password_resets p
        where p.token_hash = m.secret_hash and (p.used_at is not null or p.expires_at <= now())
      )
    ) ${scope}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** A stored body as it may be shown now: the link redacted if it died since the last scrub. */
export function visibleBody(
  body: string,
  row: { secret_link: string | null; secret_expires_at: Date | null },
  now = new Date(),
): string {
  if (!row.secret_link || !row.secret_expires_at || row.secret_expires_at > now) return body;
  return body.replaceAll(row.secret_link, LINK_GONE);
}
