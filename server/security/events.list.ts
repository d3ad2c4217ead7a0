/** Reading the security event log: the admin list (ARCHITECTURE §3 list contract). */
import {
  SECURITY_EVENT_FILTER_FIELDS,
  SECURITY_EVENT_SORT_FIELDS,
  type SecurityEventRecord,
  type SecurityEventType,
} from "../../schemas/security-events";
import type { AppContext } from "../context";
import { type ListQuery, listPage } from "../http/list-query";

/** Newest first by default; filters on type, user, actor, email, IP and date range. */
export async function listSecurityEvents(
  ctx: Pick<AppContext, "db">,
  query: ListQuery,
): Promise<{ data: SecurityEventRecord[]; total: number }> {
  const q = ctx.db
    .selectFrom("security_events as e")
    .leftJoin("users as u", "u.id", "e.user_id")
    .leftJoin("users as a", "a.id", "e.actor_id")
    .selectAll("e")
    .select(["u.email as user_email", "a.email as actor_email"]);
  const { rows, total } = await listPage(ctx.db, q, query, {
    table: "e",
    defaultSort: "-created_at",
    sortFields: SECURITY_EVENT_SORT_FIELDS,
    filterFields: SECURITY_EVENT_FILTER_FIELDS,
    search: ["email", "ip", "user_agent", "type"],
  });
  const data = rows.map(
    (r): SecurityEventRecord => ({
      id: r.id,
      created_at: new Date(r.created_at).toISOString(),
      type: r.type as SecurityEventType,
      user_id: r.user_id,
      user_email: r.user_email,
      actor_id: r.actor_id,
      actor_email: r.actor_email,
      email: r.email,
      ip: r.ip,
      user_agent: r.user_agent,
      details: r.details ?? {},
    }),
  );
  return { data, total };
}
