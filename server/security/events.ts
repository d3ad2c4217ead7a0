/**
 * The security event log: who signed in (or failed to), lockouts, password resets, grant, role
 * and status changes, device revocations. Each row keeps the time, the user it concerns, the
 * actor who caused it, the client's IP and user agent, and free-form details.
 *
 * Recording is best effort by design: a security event must never fail the request it
 * belongs to (the sign-in, the reset, the grant change), so errors are logged and swallowed.
 */
import { sql } from "kysely";
import type { SecurityEventType } from "../../schemas/security-events";
import { UUID } from "../../schemas/uuid";
import type { AppContext } from "../context";

export { SECURITY_EVENT_TYPES, type SecurityEventType } from "../../schemas/security-events";

export interface SecurityEventInput {
  type: SecurityEventType;
  /** The user the event concerns (null when unknown, e.g. a failed sign-in for no account). */
  userId?: string | null;
  /** Who caused it, when not the user themself (an admin changing grants). */
  actorId?: string | null;
  /** The email given or concerned; kept even when no account matches. */
  email?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown>;
}

/** Longest user agent kept; clients may send anything. */
const MAX_USER_AGENT = 512;
const MAX_EMAIL = 320;

/**
 * Records one security event. Never throws: a failure is logged and the caller goes on.
 * Pass a transaction as `ctx.db` to record inside the change it describes.
 *
 * @example
 * await recordSecurityEvent(ctx, { type: "signin", userId: user.id, ip: req.ip, userAgent });
 */
export async function recordSecurityEvent(
  ctx: Pick<AppContext, "db" | "log">,
  event: SecurityEventInput,
): Promise<void> {
  const insert = ctx.db.insertInto("security_events").values({
    type: event.type,
    user_id: uuidOrNull(event.userId),
    actor_id: uuidOrNull(event.actorId),
    email: emailOf(event),
    ip: clip(event.ip ?? null, 64),
    user_agent: clip(event.userAgent ?? null, MAX_USER_AGENT),
    details: sql<string>`cast(${JSON.stringify(event.details ?? {})} as text)::jsonb`,
  });
  if (!ctx.db.isTransaction) {
    try {
      await insert.execute();
    } catch (err) {
      ctx.log.error({ err, securityEvent: event.type }, "could not record a security event");
    }
    return;
  }
  // Inside a transaction a failed statement would abort the caller's whole change, so the
  // insert runs under a savepoint and only the event is rolled back when it fails.
  try {
    await sql`savepoint security_event`.execute(ctx.db);
  } catch (err) {
    ctx.log.error({ err, securityEvent: event.type }, "could not record a security event");
    return;
  }
  try {
    await insert.execute();
    await sql`release savepoint security_event`.execute(ctx.db);
  } catch (err) {
    ctx.log.error({ err, securityEvent: event.type }, "could not record a security event");
    await sql`rollback to savepoint security_event`.execute(ctx.db).catch(() => undefined);
  }
}

/**
 * The email kept on the row: the one given, else the concerned user's current one, so the log
 * is searchable by email for every event and stays readable after the account is deleted.
 */
function emailOf(event: SecurityEventInput) {
  const given = clip(event.email?.trim().toLowerCase() ?? null, MAX_EMAIL);
  const userId = uuidOrNull(event.userId);
  if (given || !userId) return given;
  return sql<string | null>`(select lower(email) from users where id = ${userId})`;
}

/** Ids are uuid columns; anything else would fail the insert, so it is dropped. */
const uuidOrNull = (id: string | null | undefined) => (id && UUID.test(id) ? id : null);

function clip(value: string | null, max: number): string | null {
  if (value === null) return null;
  // NUL cannot be stored in a PostgreSQL text column; strip it rather than lose the event.
  const clean = value.replaceAll("\u0000", "");
  return clean.length > max ? clean.slice(0, max) : clean;
}
