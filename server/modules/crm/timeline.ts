/**
 * A client's timeline (spec §3 `clientData`): notes, mails and SMS both ways, form
 * submissions, opportunity changes, meetings, tasks and sequence steps, newest first. Every
 * part of the CRM writes here through `addTimeline`, in its own transaction, so an entry
 * exists exactly when what it records does.
 */
import { randomUUID } from "node:crypto";
import { type Kysely, sql, type Transaction } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import type { TimelineKind } from "../../../schemas/crm";
import { UUID } from "../../../schemas/uuid";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { insertRows } from "../../db/insert-rows";

export type Db = Kysely<Database> | Transaction<Database>;

export interface TimelineInput {
  clientId: string;
  kind: TimelineKind;
  title: string;
  body?: string | null;
  /** What the entry shows besides its words: a message's addresses, a submission's UTM, a move's stages. */
  data?: Record<string, unknown>;
  /** The record it is about (message, submission, opportunity, meeting, task). */
  refId?: string | null;
  actorId?: string | null;
  occurredAt?: Date;
  /** Writers that may run twice for one cause (a redelivered job, a mail seen twice) pass one. */
  dedupeKey?: string | null;
}

export interface TimelineEntry {
  id: string;
  client_id: string;
  kind: TimelineKind;
  occurred_at: string;
  actor_id: string | null;
  title: string;
  body: string | null;
  data: Record<string, unknown>;
  ref_id: string | null;
}

/** Resource name of timeline changes on the socket: `ids` are the clients whose timeline grew. */
export const TIMELINE_RESOURCE = "client-timeline";

const TIMELINE_COLUMNS = {
  id: "uuid",
  client_id: "uuid",
  kind: "text",
  title: "text",
  body: "text",
  data: "jsonb",
  ref_id: "uuid",
  actor_id: "uuid",
  occurred_at: "timestamptz",
  dedupe_key: "text",
} as const;

/**
 * Adds entries (in the caller's transaction) and marks the clients active. An entry whose
 * dedupe key is already stored is skipped. Answers how many were added.
 */
export async function addTimeline(db: Db, entries: readonly TimelineInput[]): Promise<number> {
  if (!entries.length) return 0;
  const { rows } = await db.executeQuery(
    insertRows<{ client_id: string; occurred_at: Date | string }>(
      "crm_timeline",
      TIMELINE_COLUMNS,
      entries.map((e) => ({
        id: randomUUID(),
        client_id: e.clientId,
        kind: e.kind,
        title: e.title.slice(0, 300),
        body: e.body ?? null,
        data: e.data ?? {},
        ref_id: e.refId ?? null,
        actor_id: e.actorId ?? null,
        occurred_at: e.occurredAt ?? new Date(),
        dedupe_key: e.dedupeKey ?? null,
      })),
      "on conflict (dedupe_key) do nothing returning client_id, occurred_at",
    ),
  );
  const latest = new Map<string, Date>();
  for (const r of rows) {
    const at = new Date(r.occurred_at);
    if (!(latest.get(r.client_id)! > at)) latest.set(r.client_id, at);
  }
  await markActive(db, latest);
  return rows.length;
}

/**
 * Moves each client's last activity up to its instant, in one statement however many clients:
 * their rows are locked in id order first, so two writers marking the same clients never wait
 * on each other in a loop.
 */
async function markActive(db: Db, latest: ReadonlyMap<string, Date>): Promise<void> {
  if (!latest.size) return;
  const ids = [...latest.keys()];
  const instants = ids.map((id) => (latest.get(id) as Date).toISOString());
  await sql`with locked as (
      select id from clients where id = any(cast(${ids} as uuid[])) order by id for update
    )
    update clients set last_activity_at = greatest(clients.last_activity_at, u.at)
    from unnest(cast(${ids} as uuid[]), cast(${instants} as timestamptz[])) as u(id, at)
    join locked on locked.id = u.id
    where clients.id = u.id`.execute(db);
}

/** Tells open client pages that these clients' timelines grew (after the commit). */
export function timelineChanged(ctx: AppContext, clientIds: readonly string[], actorId: string | null) {
  if (!clientIds.length) return;
  ctx.events.publish({
    resource: TIMELINE_RESOURCE,
    moduleID: MODULE_IDS.crm,
    type: "created",
    ids: [...new Set(clientIds)],
    actorId,
  });
}

export interface TimelineQuery {
  kinds?: readonly TimelineKind[];
  /** Entries older than this cursor (`<occurred_at ISO>|<id>`, from the previous page). */
  before?: string;
  limit: number;
}

/** A page of a client's timeline, newest first, with the cursor of the next page. */
export async function listTimeline(
  db: Db,
  clientId: string,
  query: TimelineQuery,
): Promise<{ data: TimelineEntry[]; next: string | null }> {
  let q = db
    .selectFrom("crm_timeline")
    .select(["id", "client_id", "kind", "occurred_at", "actor_id", "title", "body", "data", "ref_id"])
    .where("client_id", "=", clientId);
  if (query.kinds?.length) q = q.where("kind", "in", query.kinds);
  const cursor = parseCursor(query.before);
  if (cursor) {
    q = q.where((eb) =>
      eb.or([
        eb("occurred_at", "<", cursor.at),
        eb.and([eb("occurred_at", "=", cursor.at), eb("id", "<", cursor.id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy("occurred_at", "desc")
    .orderBy("id", "desc")
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit).map((r) => ({
    ...r,
    occurred_at: new Date(r.occurred_at).toISOString(),
    data: (typeof r.data === "string" ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
  }));
  const last = page.at(-1);
  return { data: page, next: rows.length > query.limit && last ? `${last.occurred_at}|${last.id}` : null };
}

/** The cursor, or undefined when it is not one we wrote (the route's schema checks the shape). */
export function parseCursor(value: string | undefined): { at: Date; id: string } | undefined {
  if (!value) return undefined;
  const [at, id] = value.split("|");
  const date = new Date(at ?? "");
  if (Number.isNaN(date.getTime()) || !UUID.test(id ?? "")) return undefined;
  return { at: date, id };
}
