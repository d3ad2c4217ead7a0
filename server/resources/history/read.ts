/**
 * Reading record history (issue 31): one record's entries, or what one person changed over a
 * period, newest first, with the actor in words (a person's name, an automation's, a store
 * connection's) and each entry's changes in its schema's order.
 */
import { sql } from "kysely";
import type { HistoryAction, HistoryActor, HistoryEntry, HistoryPage } from "../../../schemas/history";
import type { AnyDb } from "../rules";

export interface HistoryFilter {
  resource?: string;
  recordId?: string;
  /** A person: the entries they made (by hand, by import, by restore). */
  userId?: string;
  from?: Date;
  to?: Date;
}

interface HistoryRow {
  id: string;
  resource: string;
  record_id: string;
  action: HistoryAction;
  actor_id: string | null;
  actor: string | null;
  at: Date | string;
  /** An update's `{ field: [old, new] }`; a create's or a delete's `{ field: value }`. */
  changes: Record<string, [unknown, unknown]> | Record<string, unknown> | string;
  first_name: string | null;
  last_name: string | null;
}

/** Field order of a resource's changes (its schema's), or none when the resource is unknown. */
export type FieldOrder = (resource: string) => readonly string[] | undefined;

/** Where a resource's records' names are: its table and its `x-label` field. */
export type LabelPlace = (resource: string) => { table: string; field: string } | undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page of entries matching `filter`, newest first. */
export async function readHistory(
  db: AnyDb,
  filter: HistoryFilter,
  page: number,
  pageSize: number,
  order: FieldOrder,
  labels?: LabelPlace,
): Promise<HistoryPage> {
  let base = db.selectFrom("record_history as h");
  if (filter.resource !== undefined) base = base.where("h.resource", "=", filter.resource);
  if (filter.recordId !== undefined) base = base.where("h.record_id", "=", filter.recordId);
  if (filter.userId !== undefined) base = base.where("h.actor_id", "=", filter.userId);
  if (filter.from) base = base.where("h.at", ">=", filter.from);
  if (filter.to) base = base.where("h.at", "<", filter.to);
  const [rows, counted] = await Promise.all([
    base
      .leftJoin("users as u", "u.id", "h.actor_id")
      .select([
        sql<string>`h.id::text`.as("id"),
        "h.resource",
        "h.record_id",
        "h.action",
        "h.actor_id",
        "h.actor",
        "h.at",
        "h.changes",
        "u.first_name",
        "u.last_name",
      ])
      .orderBy("h.id", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute() as Promise<HistoryRow[]>,
    base.select(sql<string>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  const names = await actorNames(db, rows);
  const data = rows.map((r) => entryOf(r, names, order));
  if (labels) await addLabels(db, data, labels);
  return { data, total: Number(counted.n) };
}

/** Each entry's record by its name: as it is now, else (deleted) as its changes last had it. */
async function addLabels(db: AnyDb, entries: HistoryEntry[], labels: LabelPlace): Promise<void> {
  const byResource = new Map<string, Set<string>>();
  for (const e of entries) {
    const set = byResource.get(e.resource) ?? new Set<string>();
    set.add(e.recordId);
    byResource.set(e.resource, set);
  }
  const found = new Map<string, string>();
  await Promise.all(
    [...byResource].map(async ([resource, ids]) => {
      const place = labels(resource);
      if (!place) return;
      const rows = await db
        .selectFrom(place.table)
        .select(["id", sql<string>`${sql.ref(place.field)}::text`.as("label")])
        .where("id", "in", [...ids])
        .execute();
      for (const r of rows) found.set(`${resource}:${r.id}`, r.label as string);
    }),
  );
  for (const e of entries) {
    const field = labels(e.resource)?.field;
    const change = field ? e.changes.find((c) => c.field === field) : undefined;
    const kept = change ? (change.to ?? change.from) : null;
    e.recordLabel = found.get(`${e.resource}:${e.recordId}`) ?? (kept == null ? null : String(kept));
  }
}

/** Names of the automations and store connections the rows name, by `automation:<id>` / `sync:<id>`. */
async function actorNames(db: AnyDb, rows: HistoryRow[]): Promise<Map<string, string>> {
  const ids = (prefix: string) => [
    ...new Set(
      rows
        .map((r) => r.actor)
        .filter((a): a is string => !!a?.startsWith(prefix))
        .map((a) => a.slice(prefix.length))
        .filter((id) => UUID.test(id)),
    ),
  ];
  const automations = ids("automation:");
  const connections = ids("sync:");
  const names = new Map<string, string>();
  const [a, c] = await Promise.all([
    automations.length
      ? db.selectFrom("automations").select(["id", "name"]).where("id", "in", automations).execute()
      : [],
    connections.length
      ? db.selectFrom("store_connections").select(["id", "name"]).where("id", "in", connections).execute()
      : [],
  ]);
  for (const r of a) names.set(`automation:${r.id}`, `Automation “${r.name}”`);
  for (const r of c) names.set(`sync:${r.id}`, `Store sync “${r.name}”`);
  return names;
}

function actorOf(row: HistoryRow, names: Map<string, string>): HistoryActor {
  const person = row.actor_id
    ? row.first_name !== null
      ? `${row.first_name} ${row.last_name ?? ""}`.trim()
      : "A deleted user"
    : null;
  const actor = row.actor ?? "";
  if (actor.startsWith("automation:"))
    return { kind: "automation", id: actor.slice(11), name: names.get(actor) ?? "A deleted automation" };
  if (actor.startsWith("sync:"))
    return { kind: "sync", id: actor.slice(5), name: names.get(actor) ?? "A store sync" };
  if (actor === "import")
    return { kind: "import", id: row.actor_id, name: `${person ?? "Someone"} (CSV import)` };
  if (actor === "restore")
    return { kind: "restore", id: row.actor_id, name: `${person ?? "Someone"} (restore)` };
  if (person) return { kind: "user", id: row.actor_id, name: person };
  return { kind: "system", id: null, name: "The system" };
}

/** No value to a person: an empty list, text or object. */
const isEmpty = (v: unknown) =>
  v === null ||
  v === "" ||
  (Array.isArray(v) && !v.length) ||
  (typeof v === "object" && v !== null && !Object.keys(v).length);

function entryOf(row: HistoryRow, names: Map<string, string>, order: FieldOrder): HistoryEntry {
  const changes = typeof row.changes === "string" ? JSON.parse(row.changes) : row.changes;
  const fields = order(row.resource) ?? [];
  const rank = (f: string) => {
    const i = fields.indexOf(f);
    return i < 0 ? fields.length : i;
  };
  return {
    id: row.id,
    resource: row.resource,
    recordId: row.record_id,
    action: row.action,
    at: new Date(row.at).toISOString(),
    actor: actorOf(row, names),
    changes: Object.keys(changes)
      .filter((field) => row.action === "updated" || !isEmpty(changes[field]))
      .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
      .map((field) => {
        const value = changes[field];
        // An update keeps [old, new]; a create its new values, a delete its last ones.
        if (row.action === "updated") return { field, from: value[0], to: value[1] };
        return row.action === "created" ? { field, from: null, to: value } : { field, from: value, to: null };
      }),
  };
}

/** One entry of a record (or undefined), with its and every later entry's changes: what a restore reads. */
export async function entriesSince(
  db: AnyDb,
  resource: string,
  recordId: string,
  entryId: string,
): Promise<Array<{ id: string; action: HistoryAction; changes: Record<string, [unknown, unknown]> }>> {
  const rows = await db
    .selectFrom("record_history")
    .select([sql<string>`id::text`.as("id"), "action", "changes"])
    .where("resource", "=", resource)
    .where("record_id", "=", recordId)
    .where("id", ">=", sql<string>`${entryId}::bigint`)
    // The column, not the text the select answers (which would sort "10" before "8").
    .orderBy("record_history.id")
    .execute();
  return rows.map((r) => ({
    id: r.id as string,
    action: r.action as HistoryAction,
    changes: typeof r.changes === "string" ? JSON.parse(r.changes) : r.changes,
  }));
}
