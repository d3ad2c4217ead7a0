/**
 * Email threads (issue 16): a conversation started from a client's page has a random token,
 * and its mails say `Reply-To: reply+<token>@CRM_INBOUND_DOMAIN`. A reply to that address is
 * the thread's, whoever sends it and whatever its subject: the token is the only key, so it is
 * long and random (128 bits), and compared lower-cased (mail systems may change a local part's case).
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Db } from "./timeline";

/** A new thread's token: 32 lower-case hex characters. */
export function newThreadToken(): string {
  return randomBytes(16).toString("hex");
}

/** The address replies to a thread go to. */
export function replyAddress(token: string, domain: string): string {
  return `reply+${token}@${domain}`;
}

const REPLY_LOCAL_PART = /^reply\+([a-z0-9]{16,64})$/;

/**
 * The thread token of a reply address on `domain`, or null when the address is not one.
 *
 * @example
 * threadTokenOf("Reply+0A1b…@Replies.Example.com", "replies.example.com"); // "0a1b…"
 */
export function threadTokenOf(address: string, domain: string): string | null {
  const at = address.lastIndexOf("@");
  if (at < 1 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return null;
  return REPLY_LOCAL_PART.exec(address.slice(0, at).toLowerCase())?.[1] ?? null;
}

/** A Message-ID of ours: `<uuid@domain>`. */
export function newMessageId(domain: string): string {
  return `<${randomUUID()}@${domain}>`;
}

/** The thread a token names, with its client. */
export async function threadByToken(db: Db, token: string) {
  return db
    .selectFrom("crm_email_threads")
    .select(["id", "client_id", "subject", "created_by"])
    .where("token", "=", token)
    .executeTakeFirst();
}
