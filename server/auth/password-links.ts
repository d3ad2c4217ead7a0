/**
 * Set-password links (`/manage/resetpassword/{id}`): one table, `password_resets`, for
 * both kinds. A 'reset' link comes from "forgot password" (RESET_TOKEN_TTL); an 'invite'
 * link from an admin inviting a user (INVITE_TOKEN_TTL). Only the hash of the id is stored;
 * a link works once.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db";
import { hashToken, newOpaqueToken } from "./tokens";

export type PasswordLinkKind = "reset" | "invite";

/**
 * Stores a new link for a user and returns its URL (host from PUBLIC_URL only).
 *
 * @example
 * const link = await createPasswordLink(ctx.db, user.id, "invite", ctx.config.inviteTokenTtl, ctx.config.publicUrl);
 */
export async function createPasswordLink(
  db: Kysely<Database>,
  userId: string,
  kind: PasswordLinkKind,
  ttlSeconds: number,
  publicUrl: string,
): Promise<string> {
  const id = newOpaqueToken(32);
  await db
    .insertInto("password_resets")
    .values({
      token_hash: hashToken(id),
      user_id: userId,
      kind,
      expires_at: new Date(Date.now() + ttlSeconds * 1000),
    })
    .execute();
  return `${publicUrl}/manage/resetpassword/${id}`;
}

/** Ends every unused link of a user (a newer invite, or a password set another way). */
export async function voidPasswordLinks(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable("password_resets")
    .set({ used_at: new Date() })
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
}

/** The kind of a link that still works, or null (unknown, used or expired). */
export async function livePasswordLinkKind(
  db: Kysely<Database>,
  id: string,
): Promise<PasswordLinkKind | null> {
  const row = await db
    .selectFrom("password_resets")
    .select("kind")
    .where("token_hash", "=", hashToken(id))
    .where("used_at", "is", null)
    .where("expires_at", ">", new Date())
    .executeTakeFirst();
  return row?.kind ?? null;
}
