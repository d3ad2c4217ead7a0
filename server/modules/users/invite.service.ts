/**
 * Inviting a user: the admin gives no password; the user gets a mail with a set-password
 * link (a `password_resets` row of kind 'invite', INVITE_TOKEN_TTL) and cannot sign in until
 * they have used it. Admins may send the invitation again while it is pending.
 */
import type { UserRecord, UserWrite } from "../../../schemas/auth";
import { createPasswordLink, voidPasswordLinks } from "../../auth/password-links";
import type { ClientMeta } from "../../auth/sessions.service";
import type { AppContext } from "../../context";
import { conflict } from "../../http/errors";
import { recordSecurityEvent } from "../../security/events";
import { createUser, getUser } from "./users.service";

export const INVITE_ALREADY_ACCEPTED =
  "This user has already set a password; there is no invitation to resend.";
export const INVITE_USER_DISABLED = "This user is disabled. Enable the account before sending an invitation.";

/** "7 days", "12 hours", "30 minutes": a link lifetime in a mail's words. */
export function describeDuration(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (seconds >= 86_400 && seconds % 86_400 === 0) return plural(seconds / 86_400, "day");
  if (seconds >= 3600 && seconds % 3600 === 0) return plural(seconds / 3600, "hour");
  return plural(Math.max(1, Math.round(seconds / 60)), "minute");
}

/** Creates a user without a password and mails them an invitation. */
export async function inviteUser(
  ctx: AppContext,
  input: UserWrite,
  actorId: string,
  meta: ClientMeta,
): Promise<UserRecord> {
  const user = await createUser(ctx, { ...input, invite: true }, actorId);
  await mailInvitation(ctx, user, actorId, meta, false);
  return user;
}

/** Mails a pending invitation again with a new link; earlier links stop working. */
export async function resendInvitation(
  ctx: AppContext,
  userId: string,
  actorId: string,
  meta: ClientMeta,
): Promise<{ message: string }> {
  const user = await getUser(ctx, userId);
  if (!user.invite_pending) throw conflict(INVITE_ALREADY_ACCEPTED);
  if (!user.active) throw conflict(INVITE_USER_DISABLED);
  await mailInvitation(ctx, user, actorId, meta, true);
  return { message: `Invitation sent again to ${user.email}.` };
}

async function mailInvitation(
  ctx: AppContext,
  user: UserRecord,
  actorId: string,
  meta: ClientMeta,
  resent: boolean,
): Promise<void> {
  const inviter = await ctx.db
    .selectFrom("users")
    .select(["first_name", "last_name"])
    .where("id", "=", actorId)
    .executeTakeFirst();
  const ttl = ctx.config.inviteTokenTtl;
  const link = await ctx.db.transaction().execute(async (trx) => {
    await voidPasswordLinks(trx, user.id); // only the newest invitation works
    return createPasswordLink(trx, user.id, "invite", ttl, ctx.config.publicUrl);
  });
  const by = inviter ? `${inviter.first_name} ${inviter.last_name}`.trim() : "An administrator";
  await ctx.mailer.send({
    to: user.email,
    subject: "You are invited to Atelier",
    text: [
      `Hello ${user.first_name},`,
      "",
      `${by} has created an Atelier account for you (${user.email}). To choose your password, open:`,
      link,
      "",
      `The link works once and expires in ${describeDuration(ttl)}. After that, ask for a new invitation.`,
    ].join("\n"),
  });
  await recordSecurityEvent(ctx, {
    type: "user_invited",
    userId: user.id,
    actorId,
    email: user.email,
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: { resent },
  });
}
